from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.create_webhook_endpoint_request_event_type_filters_item import (
    CreateWebhookEndpointRequestEventTypeFiltersItem,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_webhook_endpoint_request_resource_scopes import (
        CreateWebhookEndpointRequestResourceScopes,
    )


T = TypeVar("T", bound="CreateWebhookEndpointRequest")


@_attrs_define
class CreateWebhookEndpointRequest:
    """
    Attributes:
        url (str): The receiver: https (http on localhost or 127.0.0.1 outside production), no credentials, no spaces or
            control characters; in production no localhost and no private, loopback, link-local or metadata address
        event_type_filters (list[CreateWebhookEndpointRequestEventTypeFiltersItem]): Exact event types, prefix wildcards
            that select at least one type (vault.*), or *
        resource_scopes (CreateWebhookEndpointRequestResourceScopes | Unset):
        description (str | Unset):
    """

    url: str
    event_type_filters: list[CreateWebhookEndpointRequestEventTypeFiltersItem]
    resource_scopes: CreateWebhookEndpointRequestResourceScopes | Unset = UNSET
    description: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        event_type_filters = []
        for event_type_filters_item_data in self.event_type_filters:
            event_type_filters_item = event_type_filters_item_data.value
            event_type_filters.append(event_type_filters_item)

        resource_scopes: dict[str, Any] | Unset = UNSET
        if not isinstance(self.resource_scopes, Unset):
            resource_scopes = self.resource_scopes.to_dict()

        description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
                "eventTypeFilters": event_type_filters,
            }
        )
        if resource_scopes is not UNSET:
            field_dict["resourceScopes"] = resource_scopes
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.create_webhook_endpoint_request_resource_scopes import (
            CreateWebhookEndpointRequestResourceScopes,
        )

        d = dict(src_dict)
        url = d.pop("url")

        event_type_filters = []
        _event_type_filters = d.pop("eventTypeFilters")
        for event_type_filters_item_data in _event_type_filters:
            event_type_filters_item = CreateWebhookEndpointRequestEventTypeFiltersItem(
                event_type_filters_item_data
            )

            event_type_filters.append(event_type_filters_item)

        _resource_scopes = d.pop("resourceScopes", UNSET)
        resource_scopes: CreateWebhookEndpointRequestResourceScopes | Unset
        if isinstance(_resource_scopes, Unset):
            resource_scopes = UNSET
        else:
            resource_scopes = CreateWebhookEndpointRequestResourceScopes.from_dict(
                _resource_scopes
            )

        description = d.pop("description", UNSET)

        create_webhook_endpoint_request = cls(
            url=url,
            event_type_filters=event_type_filters,
            resource_scopes=resource_scopes,
            description=description,
        )

        return create_webhook_endpoint_request
