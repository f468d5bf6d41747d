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
    from ..models.connector_export_failed_data import ConnectorExportFailedData


T = TypeVar("T", bound="PublishWebhookEventRequestType21")


@_attrs_define
class PublishWebhookEventRequestType21:
    """
    Attributes:
        organization_id (str):
        type_ (Literal['connector.export.failed']):
        data (ConnectorExportFailedData): data of connector.export.failed: An export of vault documents to a provider
            failed
    """

    organization_id: str
    type_: Literal["connector.export.failed"]
    data: ConnectorExportFailedData

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
        from ..models.connector_export_failed_data import ConnectorExportFailedData

        d = dict(src_dict)
        organization_id = d.pop("organizationId")

        type_ = cast(Literal["connector.export.failed"], d.pop("type"))
        if type_ != "connector.export.failed":
            raise ValueError(
                f"type must match const 'connector.export.failed', got '{type_}'"
            )

        data = ConnectorExportFailedData.from_dict(d.pop("data"))

        publish_webhook_event_request_type_21 = cls(
            organization_id=organization_id,
            type_=type_,
            data=data,
        )

        return publish_webhook_event_request_type_21
