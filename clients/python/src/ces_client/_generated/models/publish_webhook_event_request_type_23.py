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
    from ..models.webhook_endpoint_disabled_data import WebhookEndpointDisabledData


T = TypeVar("T", bound="PublishWebhookEventRequestType23")


@_attrs_define
class PublishWebhookEventRequestType23:
    """
    Attributes:
        organization_id (str):
        type_ (Literal['webhook.endpoint.disabled']):
        data (WebhookEndpointDisabledData): data of webhook.endpoint.disabled: An endpoint was disabled after repeated
            delivery failures
    """

    organization_id: str
    type_: Literal["webhook.endpoint.disabled"]
    data: WebhookEndpointDisabledData

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
        from ..models.webhook_endpoint_disabled_data import WebhookEndpointDisabledData

        d = dict(src_dict)
        organization_id = d.pop("organizationId")

        type_ = cast(Literal["webhook.endpoint.disabled"], d.pop("type"))
        if type_ != "webhook.endpoint.disabled":
            raise ValueError(
                f"type must match const 'webhook.endpoint.disabled', got '{type_}'"
            )

        data = WebhookEndpointDisabledData.from_dict(d.pop("data"))

        publish_webhook_event_request_type_23 = cls(
            organization_id=organization_id,
            type_=type_,
            data=data,
        )

        return publish_webhook_event_request_type_23
