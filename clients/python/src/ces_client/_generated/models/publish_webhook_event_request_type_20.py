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
    from ..models.connector_export_completed_data import ConnectorExportCompletedData


T = TypeVar("T", bound="PublishWebhookEventRequestType20")


@_attrs_define
class PublishWebhookEventRequestType20:
    """
    Attributes:
        organization_id (str):
        type_ (Literal['connector.export.completed']):
        data (ConnectorExportCompletedData): data of connector.export.completed: An export of vault documents to a
            provider finished
    """

    organization_id: str
    type_: Literal["connector.export.completed"]
    data: ConnectorExportCompletedData

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
        from ..models.connector_export_completed_data import (
            ConnectorExportCompletedData,
        )

        d = dict(src_dict)
        organization_id = d.pop("organizationId")

        type_ = cast(Literal["connector.export.completed"], d.pop("type"))
        if type_ != "connector.export.completed":
            raise ValueError(
                f"type must match const 'connector.export.completed', got '{type_}'"
            )

        data = ConnectorExportCompletedData.from_dict(d.pop("data"))

        publish_webhook_event_request_type_20 = cls(
            organization_id=organization_id,
            type_=type_,
            data=data,
        )

        return publish_webhook_event_request_type_20
