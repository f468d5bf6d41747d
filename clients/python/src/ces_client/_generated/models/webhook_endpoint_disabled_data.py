from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="WebhookEndpointDisabledData")


@_attrs_define
class WebhookEndpointDisabledData:
    """data of webhook.endpoint.disabled: An endpoint was disabled after repeated delivery failures

    Attributes:
        endpoint_id (str): Identifier of the webhook endpoint
        url (str):
        reason (str): Why it was disabled
    """

    endpoint_id: str
    url: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        endpoint_id = self.endpoint_id

        url = self.url

        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "endpointId": endpoint_id,
                "url": url,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        endpoint_id = d.pop("endpointId")

        url = d.pop("url")

        reason = d.pop("reason")

        webhook_endpoint_disabled_data = cls(
            endpoint_id=endpoint_id,
            url=url,
            reason=reason,
        )

        return webhook_endpoint_disabled_data
