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
    from ..models.connector_sync_failed_data import ConnectorSyncFailedData


T = TypeVar("T", bound="PublishWebhookEventRequestType18")


@_attrs_define
class PublishWebhookEventRequestType18:
    """
    Attributes:
        organization_id (str):
        type_ (Literal['connector.sync.failed']):
        data (ConnectorSyncFailedData): data of connector.sync.failed: An import run of an import link failed
    """

    organization_id: str
    type_: Literal["connector.sync.failed"]
    data: ConnectorSyncFailedData

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
        from ..models.connector_sync_failed_data import ConnectorSyncFailedData

        d = dict(src_dict)
        organization_id = d.pop("organizationId")

        type_ = cast(Literal["connector.sync.failed"], d.pop("type"))
        if type_ != "connector.sync.failed":
            raise ValueError(
                f"type must match const 'connector.sync.failed', got '{type_}'"
            )

        data = ConnectorSyncFailedData.from_dict(d.pop("data"))

        publish_webhook_event_request_type_18 = cls(
            organization_id=organization_id,
            type_=type_,
            data=data,
        )

        return publish_webhook_event_request_type_18
