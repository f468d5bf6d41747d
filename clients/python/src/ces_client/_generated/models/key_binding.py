from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="KeyBinding")


@_attrs_define
class KeyBinding:
    """
    Attributes:
        id (str):
        application_id (str):
        api_key_id (str):
    """

    id: str
    application_id: str
    api_key_id: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        application_id = self.application_id

        api_key_id = self.api_key_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "application_id": application_id,
                "api_key_id": api_key_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        application_id = d.pop("application_id")

        api_key_id = d.pop("api_key_id")

        key_binding = cls(
            id=id,
            application_id=application_id,
            api_key_id=api_key_id,
        )

        return key_binding
