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
    from ..models.transcription_job_failed_data import TranscriptionJobFailedData


T = TypeVar("T", bound="PublishWebhookEventRequestType5")


@_attrs_define
class PublishWebhookEventRequestType5:
    """
    Attributes:
        organization_id (str):
        type_ (Literal['transcription.job.failed']):
        data (TranscriptionJobFailedData): data of transcription.job.failed: A transcription job failed
    """

    organization_id: str
    type_: Literal["transcription.job.failed"]
    data: TranscriptionJobFailedData

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
        from ..models.transcription_job_failed_data import TranscriptionJobFailedData

        d = dict(src_dict)
        organization_id = d.pop("organizationId")

        type_ = cast(Literal["transcription.job.failed"], d.pop("type"))
        if type_ != "transcription.job.failed":
            raise ValueError(
                f"type must match const 'transcription.job.failed', got '{type_}'"
            )

        data = TranscriptionJobFailedData.from_dict(d.pop("data"))

        publish_webhook_event_request_type_5 = cls(
            organization_id=organization_id,
            type_=type_,
            data=data,
        )

        return publish_webhook_event_request_type_5
