from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="ImanageConnectionParams")


@_attrs_define
class ImanageConnectionParams:
    """
    Attributes:
        server (str | Unset): iManage Work server: The host name of the firm's iManage Work server: cloudimanage.com for
            iManage's cloud, or the firm's own.
    """

    server: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        server = self.server

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if server is not UNSET:
            field_dict["server"] = server

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        server = d.pop("server", UNSET)

        imanage_connection_params = cls(
            server=server,
        )

        return imanage_connection_params
