from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="ProviderScopeTiersItem")


@_attrs_define
class ProviderScopeTiersItem:
    """
    Attributes:
        name (str):
        description (str):
        scopes (list[str]): Scopes asked for at consent
        required_scopes (list[str]): Scopes the user must grant
    """

    name: str
    description: str
    scopes: list[str]
    required_scopes: list[str]

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        description = self.description

        scopes = self.scopes

        required_scopes = self.required_scopes

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "description": description,
                "scopes": scopes,
                "required_scopes": required_scopes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        description = d.pop("description")

        scopes = cast(list[str], d.pop("scopes"))

        required_scopes = cast(list[str], d.pop("required_scopes"))

        provider_scope_tiers_item = cls(
            name=name,
            description=description,
            scopes=scopes,
            required_scopes=required_scopes,
        )

        return provider_scope_tiers_item
