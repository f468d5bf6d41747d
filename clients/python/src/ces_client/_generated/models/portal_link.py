from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="PortalLink")


@_attrs_define
class PortalLink:
    """
    Attributes:
        id (str):
        url (str): Open once, in a browser or an iframe: its secret is in the fragment, never sent to a server
        expires_at (datetime.datetime):
    """

    id: str
    url: str
    expires_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "url": url,
                "expires_at": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        portal_link = cls(
            id=id,
            url=url,
            expires_at=expires_at,
        )

        return portal_link
