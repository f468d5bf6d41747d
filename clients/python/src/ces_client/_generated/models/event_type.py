from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.event_type_permission import EventTypePermission

if TYPE_CHECKING:
    from ..models.event_type_schema import EventTypeSchema


T = TypeVar("T", bound="EventType")


@_attrs_define
class EventType:
    """
    Attributes:
        type_ (str):
        description (str):
        permission (EventTypePermission): The permission a key needs to receive it
        schema (EventTypeSchema): JSON Schema of the event's data
    """

    type_: str
    description: str
    permission: EventTypePermission
    schema: EventTypeSchema

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        description = self.description

        permission = self.permission.value

        schema = self.schema.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "description": description,
                "permission": permission,
                "schema": schema,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_type_schema import EventTypeSchema

        d = dict(src_dict)
        type_ = d.pop("type")

        description = d.pop("description")

        permission = EventTypePermission(d.pop("permission"))

        schema = EventTypeSchema.from_dict(d.pop("schema"))

        event_type = cls(
            type_=type_,
            description=description,
            permission=permission,
            schema=schema,
        )

        return event_type
