from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="WebhookTestData")


@_attrs_define
class WebhookTestData:
    """data of webhook.test: Sent on request to check that an endpoint receives and verifies events

    Attributes:
        endpoint_id (str): Identifier of the webhook endpoint
        message (str):
    """

    endpoint_id: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        endpoint_id = self.endpoint_id

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "endpointId": endpoint_id,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        endpoint_id = d.pop("endpointId")

        message = d.pop("message")

        webhook_test_data = cls(
            endpoint_id=endpoint_id,
            message=message,
        )

        return webhook_test_data
