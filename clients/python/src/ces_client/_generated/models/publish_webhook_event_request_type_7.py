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
    from ..models.matter_updated_data import MatterUpdatedData


T = TypeVar("T", bound="PublishWebhookEventRequestType7")


@_attrs_define
class PublishWebhookEventRequestType7:
    """
    Attributes:
        organization_id (str):
        type_ (Literal['matter.updated']):
        data (MatterUpdatedData): data of matter.updated: A matter changed
    """

    organization_id: str
    type_: Literal["matter.updated"]
    data: MatterUpdatedData

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
        from ..models.matter_updated_data import MatterUpdatedData

        d = dict(src_dict)
        organization_id = d.pop("organizationId")

        type_ = cast(Literal["matter.updated"], d.pop("type"))
        if type_ != "matter.updated":
            raise ValueError(f"type must match const 'matter.updated', got '{type_}'")

        data = MatterUpdatedData.from_dict(d.pop("data"))

        publish_webhook_event_request_type_7 = cls(
            organization_id=organization_id,
            type_=type_,
            data=data,
        )

        return publish_webhook_event_request_type_7
