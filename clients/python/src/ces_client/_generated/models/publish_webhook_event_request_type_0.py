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
    from ..models.vault_ingest_completed_data import VaultIngestCompletedData


T = TypeVar("T", bound="PublishWebhookEventRequestType0")


@_attrs_define
class PublishWebhookEventRequestType0:
    """
    Attributes:
        organization_id (str):
        type_ (Literal['vault.ingest.completed']):
        data (VaultIngestCompletedData): data of vault.ingest.completed: Ingestion of a vault object finished
    """

    organization_id: str
    type_: Literal["vault.ingest.completed"]
    data: VaultIngestCompletedData

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
        from ..models.vault_ingest_completed_data import VaultIngestCompletedData

        d = dict(src_dict)
        organization_id = d.pop("organizationId")

        type_ = cast(Literal["vault.ingest.completed"], d.pop("type"))
        if type_ != "vault.ingest.completed":
            raise ValueError(
                f"type must match const 'vault.ingest.completed', got '{type_}'"
            )

        data = VaultIngestCompletedData.from_dict(d.pop("data"))

        publish_webhook_event_request_type_0 = cls(
            organization_id=organization_id,
            type_=type_,
            data=data,
        )

        return publish_webhook_event_request_type_0
