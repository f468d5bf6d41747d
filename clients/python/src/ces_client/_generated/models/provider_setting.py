from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.provider_setting_provider import ProviderSettingProvider
from ..types import UNSET, Unset

T = TypeVar("T", bound="ProviderSetting")


@_attrs_define
class ProviderSetting:
    """
    Attributes:
        provider (ProviderSettingProvider):
        enabled (bool):
        updated_at (datetime.datetime):
        allowed_hosts (list[str] | Unset): The hosts the organization's connections may name (providers with a server
            param)
    """

    provider: ProviderSettingProvider
    enabled: bool
    updated_at: datetime.datetime
    allowed_hosts: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        provider = self.provider.value

        enabled = self.enabled

        updated_at = self.updated_at.isoformat()

        allowed_hosts: list[str] | Unset = UNSET
        if not isinstance(self.allowed_hosts, Unset):
            allowed_hosts = self.allowed_hosts

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "provider": provider,
                "enabled": enabled,
                "updated_at": updated_at,
            }
        )
        if allowed_hosts is not UNSET:
            field_dict["allowed_hosts"] = allowed_hosts

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        provider = ProviderSettingProvider(d.pop("provider"))

        enabled = d.pop("enabled")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        allowed_hosts = cast(list[str], d.pop("allowed_hosts", UNSET))

        provider_setting = cls(
            provider=provider,
            enabled=enabled,
            updated_at=updated_at,
            allowed_hosts=allowed_hosts,
        )

        return provider_setting
