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
    from ..models.webhook_test_data import WebhookTestData


T = TypeVar("T", bound="PublishWebhookEventRequestType22")


@_attrs_define
class PublishWebhookEventRequestType22:
    """
    Attributes:
        organization_id (str):
        type_ (Literal['webhook.test']):
        data (WebhookTestData): data of webhook.test: Sent on request to check that an endpoint receives and verifies
            events
    """

    organization_id: str
    type_: Literal["webhook.test"]
    data: WebhookTestData

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
        from ..models.webhook_test_data import WebhookTestData

        d = dict(src_dict)
        organization_id = d.pop("organizationId")

        type_ = cast(Literal["webhook.test"], d.pop("type"))
        if type_ != "webhook.test":
            raise ValueError(f"type must match const 'webhook.test', got '{type_}'")

        data = WebhookTestData.from_dict(d.pop("data"))

        publish_webhook_event_request_type_22 = cls(
            organization_id=organization_id,
            type_=type_,
            data=data,
        )

        return publish_webhook_event_request_type_22
