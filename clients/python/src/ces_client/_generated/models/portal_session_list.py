from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.portal_session import PortalSession


T = TypeVar("T", bound="PortalSessionList")


@_attrs_define
class PortalSessionList:
    """
    Attributes:
        data (list[PortalSession]):
    """

    data: list[PortalSession]

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.portal_session import PortalSession

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = PortalSession.from_dict(data_item_data)

            data.append(data_item)

        portal_session_list = cls(
            data=data,
        )

        return portal_session_list
