from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.set_provider_enabled_request_provider import (
    SetProviderEnabledRequestProvider,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="SetProviderEnabledRequest")


@_attrs_define
class SetProviderEnabledRequest:
    """
    Attributes:
        provider (SetProviderEnabledRequestProvider):
        enabled (bool):
        confirm_organization_wide (bool):
        allowed_hosts (list[str] | None | Unset): A provider whose connections name a server (an iManage Work host): the
            hosts this organization's connections may name, exact or `*.example.com`, over the deployment's own list. Null
            or empty: any the deployment allows. Omitted: unchanged
    """

    provider: SetProviderEnabledRequestProvider
    enabled: bool
    confirm_organization_wide: bool
    allowed_hosts: list[str] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        provider = self.provider.value

        enabled = self.enabled

        confirm_organization_wide = self.confirm_organization_wide

        allowed_hosts: list[str] | None | Unset
        if isinstance(self.allowed_hosts, Unset):
            allowed_hosts = UNSET
        elif isinstance(self.allowed_hosts, list):
            allowed_hosts = self.allowed_hosts

        else:
            allowed_hosts = self.allowed_hosts

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "provider": provider,
                "enabled": enabled,
                "confirm_organization_wide": confirm_organization_wide,
            }
        )
        if allowed_hosts is not UNSET:
            field_dict["allowed_hosts"] = allowed_hosts

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        provider = SetProviderEnabledRequestProvider(d.pop("provider"))

        enabled = d.pop("enabled")

        confirm_organization_wide = d.pop("confirm_organization_wide")

        def _parse_allowed_hosts(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                allowed_hosts_type_0 = cast(list[str], data)

                return allowed_hosts_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        allowed_hosts = _parse_allowed_hosts(d.pop("allowed_hosts", UNSET))

        set_provider_enabled_request = cls(
            provider=provider,
            enabled=enabled,
            confirm_organization_wide=confirm_organization_wide,
            allowed_hosts=allowed_hosts,
        )

        return set_provider_enabled_request
