from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateConnectionRequestType8Params")


@_attrs_define
class CreateConnectionRequestType8Params:
    """What the provider must know before the consent (GET /connectors/v1/providers lists each provider's params); those
    not given are asked on the connect page

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

        create_connection_request_type_8_params = cls(
            server=server,
        )

        return create_connection_request_type_8_params
