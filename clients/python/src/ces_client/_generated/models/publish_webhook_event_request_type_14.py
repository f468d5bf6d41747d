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
    from ..models.connector_sync_completed_data import ConnectorSyncCompletedData


T = TypeVar("T", bound="PublishWebhookEventRequestType14")


@_attrs_define
class PublishWebhookEventRequestType14:
    """
    Attributes:
        organization_id (str):
        type_ (Literal['connector.sync.completed']):
        data (ConnectorSyncCompletedData): data of connector.sync.completed: An import run of an import link finished
            its pass
    """

    organization_id: str
    type_: Literal["connector.sync.completed"]
    data: ConnectorSyncCompletedData

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
        from ..models.connector_sync_completed_data import ConnectorSyncCompletedData

        d = dict(src_dict)
        organization_id = d.pop("organizationId")

        type_ = cast(Literal["connector.sync.completed"], d.pop("type"))
        if type_ != "connector.sync.completed":
            raise ValueError(
                f"type must match const 'connector.sync.completed', got '{type_}'"
            )

        data = ConnectorSyncCompletedData.from_dict(d.pop("data"))

        publish_webhook_event_request_type_14 = cls(
            organization_id=organization_id,
            type_=type_,
            data=data,
        )

        return publish_webhook_event_request_type_14
