from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="PendingConnection")


@_attrs_define
class PendingConnection:
    """
    Attributes:
        connection_id (str):
        connect_url (str): One-time URL for the end user: {base_url}/connectors/v1/connect/<token>
        expires_at (datetime.datetime): When the connect URL expires (10 minutes after it was issued)
    """

    connection_id: str
    connect_url: str
    expires_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        connection_id = self.connection_id

        connect_url = self.connect_url

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "connection_id": connection_id,
                "connect_url": connect_url,
                "expires_at": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        connection_id = d.pop("connection_id")

        connect_url = d.pop("connect_url")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        pending_connection = cls(
            connection_id=connection_id,
            connect_url=connect_url,
            expires_at=expires_at,
        )

        return pending_connection
