from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.receiver_event_data import ReceiverEventData


T = TypeVar("T", bound="ReceiverEvent")


@_attrs_define
class ReceiverEvent:
    """
    Attributes:
        id (str):
        type_ (str):
        occurred_at (datetime.datetime):
        data (ReceiverEventData):
    """

    id: str
    type_: str
    occurred_at: datetime.datetime
    data: ReceiverEventData

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_

        occurred_at = self.occurred_at.isoformat()

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
                "occurred_at": occurred_at,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.receiver_event_data import ReceiverEventData

        d = dict(src_dict)
        id = d.pop("id")

        type_ = d.pop("type")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        data = ReceiverEventData.from_dict(d.pop("data"))

        receiver_event = cls(
            id=id,
            type_=type_,
            occurred_at=occurred_at,
            data=data,
        )

        return receiver_event
