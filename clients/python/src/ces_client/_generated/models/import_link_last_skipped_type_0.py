from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="ImportLinkLastSkippedType0")


@_attrs_define
class ImportLinkLastSkippedType0:
    """
    Attributes:
        at (datetime.datetime):
        reason (str):
    """

    at: datetime.datetime
    reason: str

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "at": at,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        reason = d.pop("reason")

        import_link_last_skipped_type_0 = cls(
            at=at,
            reason=reason,
        )

        return import_link_last_skipped_type_0
