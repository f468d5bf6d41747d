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
    from ..models.connector_link_source_restored_data import (
        ConnectorLinkSourceRestoredData,
    )


T = TypeVar("T", bound="PublishWebhookEventRequestType16")


@_attrs_define
class PublishWebhookEventRequestType16:
    """
    Attributes:
        organization_id (str):
        type_ (Literal['connector.link.source_restored']):
        data (ConnectorLinkSourceRestoredData): data of connector.link.source_restored: An import link's container is
            back at the provider: a run succeeded and the link left source_missing
    """

    organization_id: str
    type_: Literal["connector.link.source_restored"]
    data: ConnectorLinkSourceRestoredData

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
        from ..models.connector_link_source_restored_data import (
            ConnectorLinkSourceRestoredData,
        )

        d = dict(src_dict)
        organization_id = d.pop("organizationId")

        type_ = cast(Literal["connector.link.source_restored"], d.pop("type"))
        if type_ != "connector.link.source_restored":
            raise ValueError(
                f"type must match const 'connector.link.source_restored', got '{type_}'"
            )

        data = ConnectorLinkSourceRestoredData.from_dict(d.pop("data"))

        publish_webhook_event_request_type_16 = cls(
            organization_id=organization_id,
            type_=type_,
            data=data,
        )

        return publish_webhook_event_request_type_16
