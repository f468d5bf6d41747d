from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.update_webhook_endpoint_request_event_type_filters_item import (
    UpdateWebhookEndpointRequestEventTypeFiltersItem,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.update_webhook_endpoint_request_resource_scopes_type_0 import (
        UpdateWebhookEndpointRequestResourceScopesType0,
    )


T = TypeVar("T", bound="UpdateWebhookEndpointRequest")


@_attrs_define
class UpdateWebhookEndpointRequest:
    """
    Attributes:
        url (str | Unset): The receiver: https (http on localhost or 127.0.0.1 outside production), no credentials, no
            spaces or control characters; in production no localhost and no private, loopback, link-local or metadata
            address
        event_type_filters (list[UpdateWebhookEndpointRequestEventTypeFiltersItem] | Unset): Exact event types, prefix
            wildcards that select at least one type (vault.*), or *
        resource_scopes (None | Unset | UpdateWebhookEndpointRequestResourceScopesType0):
        description (None | str | Unset):
    """

    url: str | Unset = UNSET
    event_type_filters: (
        list[UpdateWebhookEndpointRequestEventTypeFiltersItem] | Unset
    ) = UNSET
    resource_scopes: None | Unset | UpdateWebhookEndpointRequestResourceScopesType0 = (
        UNSET
    )
    description: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.update_webhook_endpoint_request_resource_scopes_type_0 import (
            UpdateWebhookEndpointRequestResourceScopesType0,
        )

        url = self.url

        event_type_filters: list[str] | Unset = UNSET
        if not isinstance(self.event_type_filters, Unset):
            event_type_filters = []
            for event_type_filters_item_data in self.event_type_filters:
                event_type_filters_item = event_type_filters_item_data.value
                event_type_filters.append(event_type_filters_item)

        resource_scopes: dict[str, Any] | None | Unset
        if isinstance(self.resource_scopes, Unset):
            resource_scopes = UNSET
        elif isinstance(
            self.resource_scopes, UpdateWebhookEndpointRequestResourceScopesType0
        ):
            resource_scopes = self.resource_scopes.to_dict()
        else:
            resource_scopes = self.resource_scopes

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if url is not UNSET:
            field_dict["url"] = url
        if event_type_filters is not UNSET:
            field_dict["eventTypeFilters"] = event_type_filters
        if resource_scopes is not UNSET:
            field_dict["resourceScopes"] = resource_scopes
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.update_webhook_endpoint_request_resource_scopes_type_0 import (
            UpdateWebhookEndpointRequestResourceScopesType0,
        )

        d = dict(src_dict)
        url = d.pop("url", UNSET)

        _event_type_filters = d.pop("eventTypeFilters", UNSET)
        event_type_filters: (
            list[UpdateWebhookEndpointRequestEventTypeFiltersItem] | Unset
        ) = UNSET
        if _event_type_filters is not UNSET:
            event_type_filters = []
            for event_type_filters_item_data in _event_type_filters:
                event_type_filters_item = (
                    UpdateWebhookEndpointRequestEventTypeFiltersItem(
                        event_type_filters_item_data
                    )
                )

                event_type_filters.append(event_type_filters_item)

        def _parse_resource_scopes(
            data: object,
        ) -> None | Unset | UpdateWebhookEndpointRequestResourceScopesType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                resource_scopes_type_0 = (
                    UpdateWebhookEndpointRequestResourceScopesType0.from_dict(data)
                )

                return resource_scopes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                None | Unset | UpdateWebhookEndpointRequestResourceScopesType0, data
            )

        resource_scopes = _parse_resource_scopes(d.pop("resourceScopes", UNSET))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        update_webhook_endpoint_request = cls(
            url=url,
            event_type_filters=event_type_filters,
            resource_scopes=resource_scopes,
            description=description,
        )

        return update_webhook_endpoint_request
