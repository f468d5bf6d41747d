from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.provider_setting_provider import ProviderSettingProvider

T = TypeVar("T", bound="ProviderSetting")


@_attrs_define
class ProviderSetting:
    """
    Attributes:
        provider (ProviderSettingProvider):
        enabled (bool):
        updated_at (datetime.datetime):
    """

    provider: ProviderSettingProvider
    enabled: bool
    updated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        provider = self.provider.value

        enabled = self.enabled

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "provider": provider,
                "enabled": enabled,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        provider = ProviderSettingProvider(d.pop("provider"))

        enabled = d.pop("enabled")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        provider_setting = cls(
            provider=provider,
            enabled=enabled,
            updated_at=updated_at,
        )

        return provider_setting
