from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="UpdateImportLinkRequestScheduleType0")


@_attrs_define
class UpdateImportLinkRequestScheduleType0:
    """
    Attributes:
        every_minutes (int):
    """

    every_minutes: int

    def to_dict(self) -> dict[str, Any]:
        every_minutes = self.every_minutes

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "every_minutes": every_minutes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        every_minutes = d.pop("every_minutes")

        update_import_link_request_schedule_type_0 = cls(
            every_minutes=every_minutes,
        )

        return update_import_link_request_schedule_type_0
