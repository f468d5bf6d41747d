from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.create_connection_request_type_6_scope_tier import (
    CreateConnectionRequestType6ScopeTier,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateConnectionRequestType6")


@_attrs_define
class CreateConnectionRequestType6:
    """
    Attributes:
        provider (Literal['box']):
        return_url (str): Where the browser is sent back, with connection_id or error appended: absolute, https (http on
            localhost or 127.0.0.1 outside production), no credentials, no spaces or control characters
        scope_tier (CreateConnectionRequestType6ScopeTier | Unset): A scope tier of the provider; omitted means the
            provider's default tier
    """

    provider: Literal["box"]
    return_url: str
    scope_tier: CreateConnectionRequestType6ScopeTier | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        provider = self.provider

        return_url = self.return_url

        scope_tier: str | Unset = UNSET
        if not isinstance(self.scope_tier, Unset):
            scope_tier = self.scope_tier.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "provider": provider,
                "return_url": return_url,
            }
        )
        if scope_tier is not UNSET:
            field_dict["scope_tier"] = scope_tier

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        provider = cast(Literal["box"], d.pop("provider"))
        if provider != "box":
            raise ValueError(f"provider must match const 'box', got '{provider}'")

        return_url = d.pop("return_url")

        _scope_tier = d.pop("scope_tier", UNSET)
        scope_tier: CreateConnectionRequestType6ScopeTier | Unset
        if isinstance(_scope_tier, Unset):
            scope_tier = UNSET
        else:
            scope_tier = CreateConnectionRequestType6ScopeTier(_scope_tier)

        create_connection_request_type_6 = cls(
            provider=provider,
            return_url=return_url,
            scope_tier=scope_tier,
        )

        return create_connection_request_type_6
