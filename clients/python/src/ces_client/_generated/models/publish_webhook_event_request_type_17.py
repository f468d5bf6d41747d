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
    from ..models.connector_document_deleted_data import ConnectorDocumentDeletedData


T = TypeVar("T", bound="PublishWebhookEventRequestType17")


@_attrs_define
class PublishWebhookEventRequestType17:
    """
    Attributes:
        organization_id (str):
        type_ (Literal['connector.document.deleted']):
        data (ConnectorDocumentDeletedData): data of connector.document.deleted: A file an import link brought in was
            deleted at the provider: its document is marked (and removed from the vault when the link's policy says so)
    """

    organization_id: str
    type_: Literal["connector.document.deleted"]
    data: ConnectorDocumentDeletedData

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
        from ..models.connector_document_deleted_data import (
            ConnectorDocumentDeletedData,
        )

        d = dict(src_dict)
        organization_id = d.pop("organizationId")

        type_ = cast(Literal["connector.document.deleted"], d.pop("type"))
        if type_ != "connector.document.deleted":
            raise ValueError(
                f"type must match const 'connector.document.deleted', got '{type_}'"
            )

        data = ConnectorDocumentDeletedData.from_dict(d.pop("data"))

        publish_webhook_event_request_type_17 = cls(
            organization_id=organization_id,
            type_=type_,
            data=data,
        )

        return publish_webhook_event_request_type_17
