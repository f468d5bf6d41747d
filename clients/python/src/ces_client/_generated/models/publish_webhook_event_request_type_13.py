from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.connection_revoked_data import ConnectionRevokedData


T = TypeVar("T", bound="PublishWebhookEventRequestType13")


@_attrs_define
class PublishWebhookEventRequestType13:
    """
    Attributes:
        organization_id (str):
        type_ (Literal['connection.revoked']):
        data (ConnectionRevokedData): data of connection.revoked: A connection was revoked (disconnected)
    """

    organization_id: str
    type_: Literal["connection.revoked"]
    data: ConnectionRevokedData

    def to_dict(self) -> dict[str, Any]:
        organization_id = self.organization_id

        type_ = self.type_

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "organizationId": organization_id,
                "type": type_,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.connection_revoked_data import ConnectionRevokedData

        d = dict(src_dict)
        organization_id = d.pop("organizationId")

        type_ = cast(Literal["connection.revoked"], d.pop("type"))
        if type_ != "connection.revoked":
            raise ValueError(
                f"type must match const 'connection.revoked', got '{type_}'"
            )

        data = ConnectionRevokedData.from_dict(d.pop("data"))

        publish_webhook_event_request_type_13 = cls(
            organization_id=organization_id,
            type_=type_,
            data=data,
        )

        return publish_webhook_event_request_type_13
