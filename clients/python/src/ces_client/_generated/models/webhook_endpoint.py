from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_endpoint_resource_scopes_type_0 import (
        WebhookEndpointResourceScopesType0,
    )


T = TypeVar("T", bound="WebhookEndpoint")


@_attrs_define
class WebhookEndpoint:
    """
    Attributes:
        id (str):
        url (str): The receiver, in its normalised (WHATWG) form
        description (None | str):
        event_type_filters (list[str]):
        resource_scopes (None | WebhookEndpointResourceScopesType0):
        enabled (bool):
        disabled_at (datetime.datetime | None):
        disabled_reason (None | str): Why it was disabled (automatically or on request)
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        previous_secret_expires_at (datetime.datetime | None): When the secret replaced by the last rotation stops
            signing; null outside a rotation window
        failing_since (datetime.datetime | None | Unset): Reads (get, list): when the current streak of failed attempts
            began (no success since); null while healthy
    """

    id: str
    url: str
    description: None | str
    event_type_filters: list[str]
    resource_scopes: None | WebhookEndpointResourceScopesType0
    enabled: bool
    disabled_at: datetime.datetime | None
    disabled_reason: None | str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    previous_secret_expires_at: datetime.datetime | None
    failing_since: datetime.datetime | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_endpoint_resource_scopes_type_0 import (
            WebhookEndpointResourceScopesType0,
        )

        id = self.id

        url = self.url

        description: None | str
        description = self.description

        event_type_filters = self.event_type_filters

        resource_scopes: dict[str, Any] | None
        if isinstance(self.resource_scopes, WebhookEndpointResourceScopesType0):
            resource_scopes = self.resource_scopes.to_dict()
        else:
            resource_scopes = self.resource_scopes

        enabled = self.enabled

        disabled_at: None | str
        if isinstance(self.disabled_at, datetime.datetime):
            disabled_at = self.disabled_at.isoformat()
        else:
            disabled_at = self.disabled_at

        disabled_reason: None | str
        disabled_reason = self.disabled_reason

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        previous_secret_expires_at: None | str
        if isinstance(self.previous_secret_expires_at, datetime.datetime):
            previous_secret_expires_at = self.previous_secret_expires_at.isoformat()
        else:
            previous_secret_expires_at = self.previous_secret_expires_at

        failing_since: None | str | Unset
        if isinstance(self.failing_since, Unset):
            failing_since = UNSET
        elif isinstance(self.failing_since, datetime.datetime):
            failing_since = self.failing_since.isoformat()
        else:
            failing_since = self.failing_since

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "url": url,
                "description": description,
                "eventTypeFilters": event_type_filters,
                "resourceScopes": resource_scopes,
                "enabled": enabled,
                "disabledAt": disabled_at,
                "disabledReason": disabled_reason,
                "createdAt": created_at,
                "updatedAt": updated_at,
                "previousSecretExpiresAt": previous_secret_expires_at,
            }
        )
        if failing_since is not UNSET:
            field_dict["failingSince"] = failing_since

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_endpoint_resource_scopes_type_0 import (
            WebhookEndpointResourceScopesType0,
        )

        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        event_type_filters = cast(list[str], d.pop("eventTypeFilters"))

        def _parse_resource_scopes(
            data: object,
        ) -> None | WebhookEndpointResourceScopesType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                resource_scopes_type_0 = WebhookEndpointResourceScopesType0.from_dict(
                    data
                )

                return resource_scopes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | WebhookEndpointResourceScopesType0, data)

        resource_scopes = _parse_resource_scopes(d.pop("resourceScopes"))

        enabled = d.pop("enabled")

        def _parse_disabled_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                disabled_at_type_0 = datetime.datetime.fromisoformat(data)

                return disabled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        disabled_at = _parse_disabled_at(d.pop("disabledAt"))

        def _parse_disabled_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabledReason"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_previous_secret_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                previous_secret_expires_at_type_0 = datetime.datetime.fromisoformat(
                    data
                )

                return previous_secret_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        previous_secret_expires_at = _parse_previous_secret_expires_at(
            d.pop("previousSecretExpiresAt")
        )

        def _parse_failing_since(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                failing_since_type_0 = datetime.datetime.fromisoformat(data)

                return failing_since_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        failing_since = _parse_failing_since(d.pop("failingSince", UNSET))

        webhook_endpoint = cls(
            id=id,
            url=url,
            description=description,
            event_type_filters=event_type_filters,
            resource_scopes=resource_scopes,
            enabled=enabled,
            disabled_at=disabled_at,
            disabled_reason=disabled_reason,
            created_at=created_at,
            updated_at=updated_at,
            previous_secret_expires_at=previous_secret_expires_at,
            failing_since=failing_since,
        )

        return webhook_endpoint
