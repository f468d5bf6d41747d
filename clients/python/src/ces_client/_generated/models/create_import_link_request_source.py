from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateImportLinkRequestSource")


@_attrs_define
class CreateImportLinkRequestSource:
    """
    Attributes:
        id (str):
        name (str | Unset): A label for people (the name the picker showed)
    """

    id: str
    name: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name", UNSET)

        create_import_link_request_source = cls(
            id=id,
            name=name,
        )

        return create_import_link_request_source
