from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.set_provider_enabled_request_provider import (
    SetProviderEnabledRequestProvider,
)

T = TypeVar("T", bound="SetProviderEnabledRequest")


@_attrs_define
class SetProviderEnabledRequest:
    """
    Attributes:
        provider (SetProviderEnabledRequestProvider):
        enabled (bool):
        confirm_organization_wide (bool):
    """

    provider: SetProviderEnabledRequestProvider
    enabled: bool
    confirm_organization_wide: bool

    def to_dict(self) -> dict[str, Any]:
        provider = self.provider.value

        enabled = self.enabled

        confirm_organization_wide = self.confirm_organization_wide

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "provider": provider,
                "enabled": enabled,
                "confirm_organization_wide": confirm_organization_wide,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        provider = SetProviderEnabledRequestProvider(d.pop("provider"))

        enabled = d.pop("enabled")

        confirm_organization_wide = d.pop("confirm_organization_wide")

        set_provider_enabled_request = cls(
            provider=provider,
            enabled=enabled,
            confirm_organization_wide=confirm_organization_wide,
        )

        return set_provider_enabled_request
