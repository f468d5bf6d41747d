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

T = TypeVar("T", bound="ConnectionReauthRequiredData")


@_attrs_define
class ConnectionReauthRequiredData:
    """data of connection.reauth_required: A connection needs the user to run the connect flow again

    Attributes:
        connection_id (str): Identifier of the connection
        provider (str): Provider identifier
        status (Literal['reauth_required']):
        previous_status (str): Status before the change
    """

    connection_id: str
    provider: str
    status: Literal["reauth_required"]
    previous_status: str

    def to_dict(self) -> dict[str, Any]:
        connection_id = self.connection_id

        provider = self.provider

        status = self.status

        previous_status = self.previous_status

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "connectionId": connection_id,
                "provider": provider,
                "status": status,
                "previousStatus": previous_status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        connection_id = d.pop("connectionId")

        provider = d.pop("provider")

        status = cast(Literal["reauth_required"], d.pop("status"))
        if status != "reauth_required":
            raise ValueError(
                f"status must match const 'reauth_required', got '{status}'"
            )

        previous_status = d.pop("previousStatus")

        connection_reauth_required_data = cls(
            connection_id=connection_id,
            provider=provider,
            status=status,
            previous_status=previous_status,
        )

        return connection_reauth_required_data
