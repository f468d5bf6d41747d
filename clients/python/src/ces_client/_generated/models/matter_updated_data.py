from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="MatterUpdatedData")


@_attrs_define
class MatterUpdatedData:
    """data of matter.updated: A matter changed

    Attributes:
        matter_id (str): Identifier of the matter
        changed_fields (list[str]): Names of the fields that changed
    """

    matter_id: str
    changed_fields: list[str]

    def to_dict(self) -> dict[str, Any]:
        matter_id = self.matter_id

        changed_fields = self.changed_fields

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "matterId": matter_id,
                "changedFields": changed_fields,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        matter_id = d.pop("matterId")

        changed_fields = cast(list[str], d.pop("changedFields"))

        matter_updated_data = cls(
            matter_id=matter_id,
            changed_fields=changed_fields,
        )

        return matter_updated_data
