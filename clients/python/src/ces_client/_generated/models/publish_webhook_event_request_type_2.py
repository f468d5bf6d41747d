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
    from ..models.ocr_job_completed_data import OcrJobCompletedData


T = TypeVar("T", bound="PublishWebhookEventRequestType2")


@_attrs_define
class PublishWebhookEventRequestType2:
    """
    Attributes:
        organization_id (str):
        type_ (Literal['ocr.job.completed']):
        data (OcrJobCompletedData): data of ocr.job.completed: An OCR job finished
    """

    organization_id: str
    type_: Literal["ocr.job.completed"]
    data: OcrJobCompletedData

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
        from ..models.ocr_job_completed_data import OcrJobCompletedData

        d = dict(src_dict)
        organization_id = d.pop("organizationId")

        type_ = cast(Literal["ocr.job.completed"], d.pop("type"))
        if type_ != "ocr.job.completed":
            raise ValueError(
                f"type must match const 'ocr.job.completed', got '{type_}'"
            )

        data = OcrJobCompletedData.from_dict(d.pop("data"))

        publish_webhook_event_request_type_2 = cls(
            organization_id=organization_id,
            type_=type_,
            data=data,
        )

        return publish_webhook_event_request_type_2
