from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.event_data import EventData


T = TypeVar("T", bound="Event")


@_attrs_define
class Event:
    """
    Attributes:
        id (str):
        organization_id (str):
        type_ (str):
        occurred_at (datetime.datetime):
        data (EventData):
    """

    id: str
    organization_id: str
    type_: str
    occurred_at: datetime.datetime
    data: EventData

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        organization_id = self.organization_id

        type_ = self.type_

        occurred_at = self.occurred_at.isoformat()

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "organizationId": organization_id,
                "type": type_,
                "occurred_at": occurred_at,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_data import EventData

        d = dict(src_dict)
        id = d.pop("id")

        organization_id = d.pop("organizationId")

        type_ = d.pop("type")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        data = EventData.from_dict(d.pop("data"))

        event = cls(
            id=id,
            organization_id=organization_id,
            type_=type_,
            occurred_at=occurred_at,
            data=data,
        )

        return event
