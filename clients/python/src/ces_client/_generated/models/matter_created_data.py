from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="MatterCreatedData")


@_attrs_define
class MatterCreatedData:
    """data of matter.created: A matter was created

    Attributes:
        matter_id (str): Identifier of the matter
        name (str):
    """

    matter_id: str
    name: str

    def to_dict(self) -> dict[str, Any]:
        matter_id = self.matter_id

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "matterId": matter_id,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        matter_id = d.pop("matterId")

        name = d.pop("name")

        matter_created_data = cls(
            matter_id=matter_id,
            name=name,
        )

        return matter_created_data
