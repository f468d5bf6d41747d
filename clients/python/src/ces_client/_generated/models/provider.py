from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.provider_id import ProviderId
from ..models.provider_kind import ProviderKind

if TYPE_CHECKING:
    from ..models.provider_params_item import ProviderParamsItem
    from ..models.provider_scope_tiers_item import ProviderScopeTiersItem


T = TypeVar("T", bound="Provider")


@_attrs_define
class Provider:
    """
    Attributes:
        id (ProviderId):
        display_name (str):
        kind (ProviderKind):
        enabled (bool): Whether the provider is on for the organization
        default_scope_tier (str):
        params (list[ProviderParamsItem]): What the provider must know before the consent (a region, a server): POST
            /connectors/v1/connections takes them as `params`; the connect page asks for those not given. Empty for most
            providers
        scope_tiers (list[ProviderScopeTiersItem]):
    """

    id: ProviderId
    display_name: str
    kind: ProviderKind
    enabled: bool
    default_scope_tier: str
    params: list[ProviderParamsItem]
    scope_tiers: list[ProviderScopeTiersItem]

    def to_dict(self) -> dict[str, Any]:
        id = self.id.value

        display_name = self.display_name

        kind = self.kind.value

        enabled = self.enabled

        default_scope_tier = self.default_scope_tier

        params = []
        for params_item_data in self.params:
            params_item = params_item_data.to_dict()
            params.append(params_item)

        scope_tiers = []
        for scope_tiers_item_data in self.scope_tiers:
            scope_tiers_item = scope_tiers_item_data.to_dict()
            scope_tiers.append(scope_tiers_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "display_name": display_name,
                "kind": kind,
                "enabled": enabled,
                "default_scope_tier": default_scope_tier,
                "params": params,
                "scope_tiers": scope_tiers,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.provider_params_item import ProviderParamsItem
        from ..models.provider_scope_tiers_item import ProviderScopeTiersItem

        d = dict(src_dict)
        id = ProviderId(d.pop("id"))

        display_name = d.pop("display_name")

        kind = ProviderKind(d.pop("kind"))

        enabled = d.pop("enabled")

        default_scope_tier = d.pop("default_scope_tier")

        params = []
        _params = d.pop("params")
        for params_item_data in _params:
            params_item = ProviderParamsItem.from_dict(params_item_data)

            params.append(params_item)

        scope_tiers = []
        _scope_tiers = d.pop("scope_tiers")
        for scope_tiers_item_data in _scope_tiers:
            scope_tiers_item = ProviderScopeTiersItem.from_dict(scope_tiers_item_data)

            scope_tiers.append(scope_tiers_item)

        provider = cls(
            id=id,
            display_name=display_name,
            kind=kind,
            enabled=enabled,
            default_scope_tier=default_scope_tier,
            params=params,
            scope_tiers=scope_tiers,
        )

        return provider
