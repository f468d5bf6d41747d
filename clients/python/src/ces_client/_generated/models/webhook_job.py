from __future__ import annotations

import datetime
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

from ..models.webhook_job_status import WebhookJobStatus

if TYPE_CHECKING:
    from ..models.webhook_job_counts import WebhookJobCounts


T = TypeVar("T", bound="WebhookJob")


@_attrs_define
class WebhookJob:
    """
    Attributes:
        id (str):
        type_ (Literal['webhooks.endpoint.recover']):
        status (WebhookJobStatus):
        endpoint_id (str):
        since (datetime.datetime):
        until (datetime.datetime):
        counts (WebhookJobCounts):
        error (None | str):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: str
    type_: Literal["webhooks.endpoint.recover"]
    status: WebhookJobStatus
    endpoint_id: str
    since: datetime.datetime
    until: datetime.datetime
    counts: WebhookJobCounts
    error: None | str
    created_at: datetime.datetime
    updated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_

        status = self.status.value

        endpoint_id = self.endpoint_id

        since = self.since.isoformat()

        until = self.until.isoformat()

        counts = self.counts.to_dict()

        error: None | str
        error = self.error

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
                "status": status,
                "endpointId": endpoint_id,
                "since": since,
                "until": until,
                "counts": counts,
                "error": error,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_job_counts import WebhookJobCounts

        d = dict(src_dict)
        id = d.pop("id")

        type_ = cast(Literal["webhooks.endpoint.recover"], d.pop("type"))
        if type_ != "webhooks.endpoint.recover":
            raise ValueError(
                f"type must match const 'webhooks.endpoint.recover', got '{type_}'"
            )

        status = WebhookJobStatus(d.pop("status"))

        endpoint_id = d.pop("endpointId")

        since = datetime.datetime.fromisoformat(d.pop("since"))

        until = datetime.datetime.fromisoformat(d.pop("until"))

        counts = WebhookJobCounts.from_dict(d.pop("counts"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        webhook_job = cls(
            id=id,
            type_=type_,
            status=status,
            endpoint_id=endpoint_id,
            since=since,
            until=until,
            counts=counts,
            error=error,
            created_at=created_at,
            updated_at=updated_at,
        )

        return webhook_job
