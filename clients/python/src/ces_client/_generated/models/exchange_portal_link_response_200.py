from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="ExchangePortalLinkResponse200")


@_attrs_define
class ExchangePortalLinkResponse200:
    """
    Attributes:
        redirect (str):
    """

    redirect: str

    def to_dict(self) -> dict[str, Any]:
        redirect = self.redirect

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "redirect": redirect,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        redirect = d.pop("redirect")

        exchange_portal_link_response_200 = cls(
            redirect=redirect,
        )

        return exchange_portal_link_response_200
