from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.create_connection_request_type_8_scope_tier import (
    CreateConnectionRequestType8ScopeTier,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.imanage_connection_params import ImanageConnectionParams


T = TypeVar("T", bound="CreateConnectionRequestType8")


@_attrs_define
class CreateConnectionRequestType8:
    """
    Attributes:
        provider (Literal['imanage']):
        return_url (str): Where the browser is sent back, with connection_id or error appended: absolute, https (http on
            localhost or 127.0.0.1 outside production), no credentials, no spaces or control characters
        scope_tier (CreateConnectionRequestType8ScopeTier | Unset): A scope tier of the provider; omitted means the
            provider's default tier
        params (ImanageConnectionParams | Unset):
    """

    provider: Literal["imanage"]
    return_url: str
    scope_tier: CreateConnectionRequestType8ScopeTier | Unset = UNSET
    params: ImanageConnectionParams | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        provider = self.provider

        return_url = self.return_url

        scope_tier: str | Unset = UNSET
        if not isinstance(self.scope_tier, Unset):
            scope_tier = self.scope_tier.value

        params: dict[str, Any] | Unset = UNSET
        if not isinstance(self.params, Unset):
            params = self.params.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "provider": provider,
                "return_url": return_url,
            }
        )
        if scope_tier is not UNSET:
            field_dict["scope_tier"] = scope_tier
        if params is not UNSET:
            field_dict["params"] = params

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.imanage_connection_params import ImanageConnectionParams

        d = dict(src_dict)
        provider = cast(Literal["imanage"], d.pop("provider"))
        if provider != "imanage":
            raise ValueError(f"provider must match const 'imanage', got '{provider}'")

        return_url = d.pop("return_url")

        _scope_tier = d.pop("scope_tier", UNSET)
        scope_tier: CreateConnectionRequestType8ScopeTier | Unset
        if isinstance(_scope_tier, Unset):
            scope_tier = UNSET
        else:
            scope_tier = CreateConnectionRequestType8ScopeTier(_scope_tier)

        _params = d.pop("params", UNSET)
        params: ImanageConnectionParams | Unset
        if isinstance(_params, Unset):
            params = UNSET
        else:
            params = ImanageConnectionParams.from_dict(_params)

        create_connection_request_type_8 = cls(
            provider=provider,
            return_url=return_url,
            scope_tier=scope_tier,
            params=params,
        )

        return create_connection_request_type_8
