from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.dead_letter_kind import DeadLetterKind
from ..models.dead_letter_queue import DeadLetterQueue

T = TypeVar("T", bound="DeadLetter")


@_attrs_define
class DeadLetter:
    """
    Attributes:
        id (str): The queue message id
        queue (DeadLetterQueue):
        kind (DeadLetterKind):
        event_id (None | str):
        event_type (None | str):
        delivery_id (None | str):
        endpoint_id (None | str):
        job_id (None | str):
        receive_count (int):
        dead_at (datetime.datetime):
    """

    id: str
    queue: DeadLetterQueue
    kind: DeadLetterKind
    event_id: None | str
    event_type: None | str
    delivery_id: None | str
    endpoint_id: None | str
    job_id: None | str
    receive_count: int
    dead_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        queue = self.queue.value

        kind = self.kind.value

        event_id: None | str
        event_id = self.event_id

        event_type: None | str
        event_type = self.event_type

        delivery_id: None | str
        delivery_id = self.delivery_id

        endpoint_id: None | str
        endpoint_id = self.endpoint_id

        job_id: None | str
        job_id = self.job_id

        receive_count = self.receive_count

        dead_at = self.dead_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "queue": queue,
                "kind": kind,
                "eventId": event_id,
                "eventType": event_type,
                "deliveryId": delivery_id,
                "endpointId": endpoint_id,
                "jobId": job_id,
                "receiveCount": receive_count,
                "deadAt": dead_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        queue = DeadLetterQueue(d.pop("queue"))

        kind = DeadLetterKind(d.pop("kind"))

        def _parse_event_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        event_id = _parse_event_id(d.pop("eventId"))

        def _parse_event_type(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        event_type = _parse_event_type(d.pop("eventType"))

        def _parse_delivery_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        delivery_id = _parse_delivery_id(d.pop("deliveryId"))

        def _parse_endpoint_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        endpoint_id = _parse_endpoint_id(d.pop("endpointId"))

        def _parse_job_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        job_id = _parse_job_id(d.pop("jobId"))

        receive_count = d.pop("receiveCount")

        dead_at = datetime.datetime.fromisoformat(d.pop("deadAt"))

        dead_letter = cls(
            id=id,
            queue=queue,
            kind=kind,
            event_id=event_id,
            event_type=event_type,
            delivery_id=delivery_id,
            endpoint_id=endpoint_id,
            job_id=job_id,
            receive_count=receive_count,
            dead_at=dead_at,
        )

        return dead_letter
