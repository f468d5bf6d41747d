from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.api_key_summary import ApiKeySummary
    from ..models.application import Application


T = TypeVar("T", bound="ApplicationList")


@_attrs_define
class ApplicationList:
    """
    Attributes:
        data (list[Application]):
        limit (int): The limit asked for (default 50)
        offset (int): Items skipped before this page
        has_more (bool): Whether items follow this page
        keys (list[ApiKeySummary]): Every API key of the organization (never a key's secret)
    """

    data: list[Application]
    limit: int
    offset: int
    has_more: bool
    keys: list[ApiKeySummary]

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        limit = self.limit

        offset = self.offset

        has_more = self.has_more

        keys = []
        for keys_item_data in self.keys:
            keys_item = keys_item_data.to_dict()
            keys.append(keys_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
                "limit": limit,
                "offset": offset,
                "has_more": has_more,
                "keys": keys,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.api_key_summary import ApiKeySummary
        from ..models.application import Application

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = Application.from_dict(data_item_data)

            data.append(data_item)

        limit = d.pop("limit")

        offset = d.pop("offset")

        has_more = d.pop("has_more")

        keys = []
        _keys = d.pop("keys")
        for keys_item_data in _keys:
            keys_item = ApiKeySummary.from_dict(keys_item_data)

            keys.append(keys_item)

        application_list = cls(
            data=data,
            limit=limit,
            offset=offset,
            has_more=has_more,
            keys=keys,
        )

        return application_list
