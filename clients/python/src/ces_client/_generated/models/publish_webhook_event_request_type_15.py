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
    from ..models.connector_link_source_missing_data import (
        ConnectorLinkSourceMissingData,
    )


T = TypeVar("T", bound="PublishWebhookEventRequestType15")


@_attrs_define
class PublishWebhookEventRequestType15:
    """
    Attributes:
        organization_id (str):
        type_ (Literal['connector.link.source_missing']):
        data (ConnectorLinkSourceMissingData): data of connector.link.source_missing: An import link's container is gone
            at the provider (deleted, moved out of reach, access revoked): the link is source_missing and its documents no
            longer show as live
    """

    organization_id: str
    type_: Literal["connector.link.source_missing"]
    data: ConnectorLinkSourceMissingData

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
        from ..models.connector_link_source_missing_data import (
            ConnectorLinkSourceMissingData,
        )

        d = dict(src_dict)
        organization_id = d.pop("organizationId")

        type_ = cast(Literal["connector.link.source_missing"], d.pop("type"))
        if type_ != "connector.link.source_missing":
            raise ValueError(
                f"type must match const 'connector.link.source_missing', got '{type_}'"
            )

        data = ConnectorLinkSourceMissingData.from_dict(d.pop("data"))

        publish_webhook_event_request_type_15 = cls(
            organization_id=organization_id,
            type_=type_,
            data=data,
        )

        return publish_webhook_event_request_type_15
