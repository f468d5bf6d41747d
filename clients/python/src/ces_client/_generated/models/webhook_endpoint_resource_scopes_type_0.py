from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookEndpointResourceScopesType0")


@_attrs_define
class WebhookEndpointResourceScopesType0:
    """
    Attributes:
        vault_ids (list[str] | Unset):
        matter_ids (list[str] | Unset):
    """

    vault_ids: list[str] | Unset = UNSET
    matter_ids: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        vault_ids: list[str] | Unset = UNSET
        if not isinstance(self.vault_ids, Unset):
            vault_ids = self.vault_ids

        matter_ids: list[str] | Unset = UNSET
        if not isinstance(self.matter_ids, Unset):
            matter_ids = self.matter_ids

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if vault_ids is not UNSET:
            field_dict["vaultIds"] = vault_ids
        if matter_ids is not UNSET:
            field_dict["matterIds"] = matter_ids

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        vault_ids = cast(list[str], d.pop("vaultIds", UNSET))

        matter_ids = cast(list[str], d.pop("matterIds", UNSET))

        webhook_endpoint_resource_scopes_type_0 = cls(
            vault_ids=vault_ids,
            matter_ids=matter_ids,
        )

        return webhook_endpoint_resource_scopes_type_0
