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
    from ..models.vault_ingest_failed_data import VaultIngestFailedData


T = TypeVar("T", bound="PublishWebhookEventRequestType1")


@_attrs_define
class PublishWebhookEventRequestType1:
    """
    Attributes:
        organization_id (str):
        type_ (Literal['vault.ingest.failed']):
        data (VaultIngestFailedData): data of vault.ingest.failed: Ingestion of a vault object failed
    """

    organization_id: str
    type_: Literal["vault.ingest.failed"]
    data: VaultIngestFailedData

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
        from ..models.vault_ingest_failed_data import VaultIngestFailedData

        d = dict(src_dict)
        organization_id = d.pop("organizationId")

        type_ = cast(Literal["vault.ingest.failed"], d.pop("type"))
        if type_ != "vault.ingest.failed":
            raise ValueError(
                f"type must match const 'vault.ingest.failed', got '{type_}'"
            )

        data = VaultIngestFailedData.from_dict(d.pop("data"))

        publish_webhook_event_request_type_1 = cls(
            organization_id=organization_id,
            type_=type_,
            data=data,
        )

        return publish_webhook_event_request_type_1
