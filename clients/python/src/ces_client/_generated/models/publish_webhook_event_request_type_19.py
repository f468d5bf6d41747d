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
    from ..models.connector_sync_skipped_data import ConnectorSyncSkippedData


T = TypeVar("T", bound="PublishWebhookEventRequestType19")


@_attrs_define
class PublishWebhookEventRequestType19:
    """
    Attributes:
        organization_id (str):
        type_ (Literal['connector.sync.skipped']):
        data (ConnectorSyncSkippedData): data of connector.sync.skipped: A scheduled import run did not start (errorCode
            says why: the provider turned off, the connection needing the user, the previous run still going); the link's
            runs list shows it as skipped
    """

    organization_id: str
    type_: Literal["connector.sync.skipped"]
    data: ConnectorSyncSkippedData

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
        from ..models.connector_sync_skipped_data import ConnectorSyncSkippedData

        d = dict(src_dict)
        organization_id = d.pop("organizationId")

        type_ = cast(Literal["connector.sync.skipped"], d.pop("type"))
        if type_ != "connector.sync.skipped":
            raise ValueError(
                f"type must match const 'connector.sync.skipped', got '{type_}'"
            )

        data = ConnectorSyncSkippedData.from_dict(d.pop("data"))

        publish_webhook_event_request_type_19 = cls(
            organization_id=organization_id,
            type_=type_,
            data=data,
        )

        return publish_webhook_event_request_type_19
