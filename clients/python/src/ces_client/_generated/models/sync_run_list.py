from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.sync_run import SyncRun


T = TypeVar("T", bound="SyncRunList")


@_attrs_define
class SyncRunList:
    """
    Attributes:
        data (list[SyncRun]):
        limit (int): The limit asked for (default 50)
        offset (int): Items skipped before this page
        has_more (bool): Whether items follow this page
        next_cursor (None | str): Pass as cursor for the page after this one; null at the end of the list
    """

    data: list[SyncRun]
    limit: int
    offset: int
    has_more: bool
    next_cursor: None | str

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        limit = self.limit

        offset = self.offset

        has_more = self.has_more

        next_cursor: None | str
        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
                "limit": limit,
                "offset": offset,
                "has_more": has_more,
                "next_cursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.sync_run import SyncRun

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = SyncRun.from_dict(data_item_data)

            data.append(data_item)

        limit = d.pop("limit")

        offset = d.pop("offset")

        has_more = d.pop("has_more")

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        sync_run_list = cls(
            data=data,
            limit=limit,
            offset=offset,
            has_more=has_more,
            next_cursor=next_cursor,
        )

        return sync_run_list
