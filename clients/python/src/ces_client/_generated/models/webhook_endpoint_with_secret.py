from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.webhook_endpoint import WebhookEndpoint


T = TypeVar("T", bound="WebhookEndpointWithSecret")


@_attrs_define
class WebhookEndpointWithSecret:
    """
    Attributes:
        endpoint (WebhookEndpoint):
        signing_secret (str): whsec_ and the base64 secret (Standard Webhooks); shown only in this answer
    """

    endpoint: WebhookEndpoint
    signing_secret: str

    def to_dict(self) -> dict[str, Any]:
        endpoint = self.endpoint.to_dict()

        signing_secret = self.signing_secret

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "endpoint": endpoint,
                "signingSecret": signing_secret,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_endpoint import WebhookEndpoint

        d = dict(src_dict)
        endpoint = WebhookEndpoint.from_dict(d.pop("endpoint"))

        signing_secret = d.pop("signingSecret")

        webhook_endpoint_with_secret = cls(
            endpoint=endpoint,
            signing_secret=signing_secret,
        )

        return webhook_endpoint_with_secret
