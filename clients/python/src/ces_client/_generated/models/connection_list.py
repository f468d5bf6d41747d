from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.connection import Connection


T = TypeVar("T", bound="ConnectionList")


@_attrs_define
class ConnectionList:
    """
    Attributes:
        data (list[Connection]):
        limit (int): The limit asked for (default 50)
        offset (int): Items skipped before this page
        has_more (bool): Whether items follow this page
    """

    data: list[Connection]
    limit: int
    offset: int
    has_more: bool

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        limit = self.limit

        offset = self.offset

        has_more = self.has_more

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
                "limit": limit,
                "offset": offset,
                "has_more": has_more,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.connection import Connection

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = Connection.from_dict(data_item_data)

            data.append(data_item)

        limit = d.pop("limit")

        offset = d.pop("offset")

        has_more = d.pop("has_more")

        connection_list = cls(
            data=data,
            limit=limit,
            offset=offset,
            has_more=has_more,
        )

        return connection_list
