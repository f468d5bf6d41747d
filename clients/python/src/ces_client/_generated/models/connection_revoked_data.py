from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="ConnectionRevokedData")


@_attrs_define
class ConnectionRevokedData:
    """data of connection.revoked: A connection was revoked (disconnected)

    Attributes:
        connection_id (str): Identifier of the connection
        provider (str): Provider identifier
        status (Literal['revoked']):
        purge (bool): Whether documents imported through the connection are being deleted
    """

    connection_id: str
    provider: str
    status: Literal["revoked"]
    purge: bool

    def to_dict(self) -> dict[str, Any]:
        connection_id = self.connection_id

        provider = self.provider

        status = self.status

        purge = self.purge

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "connectionId": connection_id,
                "provider": provider,
                "status": status,
                "purge": purge,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        connection_id = d.pop("connectionId")

        provider = d.pop("provider")

        status = cast(Literal["revoked"], d.pop("status"))
        if status != "revoked":
            raise ValueError(f"status must match const 'revoked', got '{status}'")

        purge = d.pop("purge")

        connection_revoked_data = cls(
            connection_id=connection_id,
            provider=provider,
            status=status,
            purge=purge,
        )

        return connection_revoked_data
