from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.provider_params_item_kind import ProviderParamsItemKind
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.provider_params_item_choices_item import ProviderParamsItemChoicesItem


T = TypeVar("T", bound="ProviderParamsItem")


@_attrs_define
class ProviderParamsItem:
    """
    Attributes:
        name (str):
        kind (ProviderParamsItemKind):
        label (str):
        description (str):
        required (bool): Whether it must be given (here or on the connect page): it has no default
        default (str | Unset):
        choices (list[ProviderParamsItemChoicesItem] | Unset):
        example (str | Unset): A host: an example of the form it takes
    """

    name: str
    kind: ProviderParamsItemKind
    label: str
    description: str
    required: bool
    default: str | Unset = UNSET
    choices: list[ProviderParamsItemChoicesItem] | Unset = UNSET
    example: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        kind = self.kind.value

        label = self.label

        description = self.description

        required = self.required

        default = self.default

        choices: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.choices, Unset):
            choices = []
            for choices_item_data in self.choices:
                choices_item = choices_item_data.to_dict()
                choices.append(choices_item)

        example = self.example

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "kind": kind,
                "label": label,
                "description": description,
                "required": required,
            }
        )
        if default is not UNSET:
            field_dict["default"] = default
        if choices is not UNSET:
            field_dict["choices"] = choices
        if example is not UNSET:
            field_dict["example"] = example

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.provider_params_item_choices_item import (
            ProviderParamsItemChoicesItem,
        )

        d = dict(src_dict)
        name = d.pop("name")

        kind = ProviderParamsItemKind(d.pop("kind"))

        label = d.pop("label")

        description = d.pop("description")

        required = d.pop("required")

        default = d.pop("default", UNSET)

        _choices = d.pop("choices", UNSET)
        choices: list[ProviderParamsItemChoicesItem] | Unset = UNSET
        if _choices is not UNSET:
            choices = []
            for choices_item_data in _choices:
                choices_item = ProviderParamsItemChoicesItem.from_dict(
                    choices_item_data
                )

                choices.append(choices_item)

        example = d.pop("example", UNSET)

        provider_params_item = cls(
            name=name,
            kind=kind,
            label=label,
            description=description,
            required=required,
            default=default,
            choices=choices,
            example=example,
        )

        return provider_params_item
