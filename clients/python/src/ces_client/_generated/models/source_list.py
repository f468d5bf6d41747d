from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.source import Source


T = TypeVar("T", bound="SourceList")


@_attrs_define
class SourceList:
    """
    Attributes:
        data (list[Source]):
        next_page_token (None | str): Pass as page_token for the next page; null at the end
    """

    data: list[Source]
    next_page_token: None | str

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        next_page_token: None | str
        next_page_token = self.next_page_token

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
                "next_page_token": next_page_token,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.source import Source

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = Source.from_dict(data_item_data)

            data.append(data_item)

        def _parse_next_page_token(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_page_token = _parse_next_page_token(d.pop("next_page_token"))

        source_list = cls(
            data=data,
            next_page_token=next_page_token,
        )

        return source_list
