from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.sync_run_waiting_reason import SyncRunWaitingReason

T = TypeVar("T", bound="SyncRunWaiting")


@_attrs_define
class SyncRunWaiting:
    """Present while the job waits before its next step

    Attributes:
        reason (SyncRunWaitingReason):
        until (datetime.datetime):
    """

    reason: SyncRunWaitingReason
    until: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason.value

        until = self.until.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reason": reason,
                "until": until,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        reason = SyncRunWaitingReason(d.pop("reason"))

        until = datetime.datetime.fromisoformat(d.pop("until"))

        sync_run_waiting = cls(
            reason=reason,
            until=until,
        )

        return sync_run_waiting
