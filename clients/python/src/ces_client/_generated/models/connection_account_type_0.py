from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="ConnectionAccountType0")


@_attrs_define
class ConnectionAccountType0:
    """
    Attributes:
        external_id (str):
        email (str):
        display_name (str):
    """

    external_id: str
    email: str
    display_name: str

    def to_dict(self) -> dict[str, Any]:
        external_id = self.external_id

        email = self.email

        display_name = self.display_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "external_id": external_id,
                "email": email,
                "display_name": display_name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        external_id = d.pop("external_id")

        email = d.pop("email")

        display_name = d.pop("display_name")

        connection_account_type_0 = cls(
            external_id=external_id,
            email=email,
            display_name=display_name,
        )

        return connection_account_type_0
