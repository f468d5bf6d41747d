from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.matter_created_data import MatterCreatedData


T = TypeVar("T", bound="PublishWebhookEventRequestType6")


@_attrs_define
class PublishWebhookEventRequestType6:
    """
    Attributes:
        organization_id (str):
        type_ (Literal['matter.created']):
        data (MatterCreatedData): data of matter.created: A matter was created
    """

    organization_id: str
    type_: Literal["matter.created"]
    data: MatterCreatedData

    def to_dict(self) -> dict[str, Any]:
        organization_id = self.organization_id

        type_ = self.type_

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "organizationId": organization_id,
                "type": type_,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.matter_created_data import MatterCreatedData

        d = dict(src_dict)
        organization_id = d.pop("organizationId")

        type_ = cast(Literal["matter.created"], d.pop("type"))
        if type_ != "matter.created":
            raise ValueError(f"type must match const 'matter.created', got '{type_}'")

        data = MatterCreatedData.from_dict(d.pop("data"))

        publish_webhook_event_request_type_6 = cls(
            organization_id=organization_id,
            type_=type_,
            data=data,
        )

        return publish_webhook_event_request_type_6
