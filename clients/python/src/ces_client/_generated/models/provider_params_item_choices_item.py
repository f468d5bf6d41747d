from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="ProviderParamsItemChoicesItem")


@_attrs_define
class ProviderParamsItemChoicesItem:
    """
    Attributes:
        value (str):
        label (str):
    """

    value: str
    label: str

    def to_dict(self) -> dict[str, Any]:
        value = self.value

        label = self.label

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "value": value,
                "label": label,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        value = d.pop("value")

        label = d.pop("label")

        provider_params_item_choices_item = cls(
            value=value,
            label=label,
        )

        return provider_params_item_choices_item
