from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.connection_detail_status_history_item_status import (
    ConnectionDetailStatusHistoryItemStatus,
)

T = TypeVar("T", bound="ConnectionDetailStatusHistoryItem")


@_attrs_define
class ConnectionDetailStatusHistoryItem:
    """
    Attributes:
        status (ConnectionDetailStatusHistoryItemStatus):
        at (datetime.datetime):
    """

    status: ConnectionDetailStatusHistoryItemStatus
    at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        at = self.at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = ConnectionDetailStatusHistoryItemStatus(d.pop("status"))

        at = datetime.datetime.fromisoformat(d.pop("at"))

        connection_detail_status_history_item = cls(
            status=status,
            at=at,
        )

        return connection_detail_status_history_item
