from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.delivery_failure_reason_type_0 import DeliveryFailureReasonType0
from ..models.delivery_status import DeliveryStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.receiver_event import ReceiverEvent


T = TypeVar("T", bound="Delivery")


@_attrs_define
class Delivery:
    """
    Attributes:
        id (str):
        endpoint_id (str):
        event_id (str):
        event_type (str):
        status (DeliveryStatus):
        failure_reason (DeliveryFailureReasonType0 | None):
        attempt_count (int):
        next_attempt_at (datetime.datetime | None):
        last_attempt_at (datetime.datetime | None):
        last_status_code (int | None):
        last_error (None | str):
        delivered_at (datetime.datetime | None):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        event (ReceiverEvent):
        last_latency_ms (int | Unset): How long the last attempt took, in ms (absent before the first attempt)
    """

    id: str
    endpoint_id: str
    event_id: str
    event_type: str
    status: DeliveryStatus
    failure_reason: DeliveryFailureReasonType0 | None
    attempt_count: int
    next_attempt_at: datetime.datetime | None
    last_attempt_at: datetime.datetime | None
    last_status_code: int | None
    last_error: None | str
    delivered_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    event: ReceiverEvent
    last_latency_ms: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        endpoint_id = self.endpoint_id

        event_id = self.event_id

        event_type = self.event_type

        status = self.status.value

        failure_reason: None | str
        if isinstance(self.failure_reason, DeliveryFailureReasonType0):
            failure_reason = self.failure_reason.value
        else:
            failure_reason = self.failure_reason

        attempt_count = self.attempt_count

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        last_attempt_at: None | str
        if isinstance(self.last_attempt_at, datetime.datetime):
            last_attempt_at = self.last_attempt_at.isoformat()
        else:
            last_attempt_at = self.last_attempt_at

        last_status_code: int | None
        last_status_code = self.last_status_code

        last_error: None | str
        last_error = self.last_error

        delivered_at: None | str
        if isinstance(self.delivered_at, datetime.datetime):
            delivered_at = self.delivered_at.isoformat()
        else:
            delivered_at = self.delivered_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        event = self.event.to_dict()

        last_latency_ms = self.last_latency_ms

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "endpointId": endpoint_id,
                "eventId": event_id,
                "eventType": event_type,
                "status": status,
                "failureReason": failure_reason,
                "attemptCount": attempt_count,
                "nextAttemptAt": next_attempt_at,
                "lastAttemptAt": last_attempt_at,
                "lastStatusCode": last_status_code,
                "lastError": last_error,
                "deliveredAt": delivered_at,
                "createdAt": created_at,
                "updatedAt": updated_at,
                "event": event,
            }
        )
        if last_latency_ms is not UNSET:
            field_dict["lastLatencyMs"] = last_latency_ms

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.receiver_event import ReceiverEvent

        d = dict(src_dict)
        id = d.pop("id")

        endpoint_id = d.pop("endpointId")

        event_id = d.pop("eventId")

        event_type = d.pop("eventType")

        status = DeliveryStatus(d.pop("status"))

        def _parse_failure_reason(data: object) -> DeliveryFailureReasonType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                failure_reason_type_0 = DeliveryFailureReasonType0(data)

                return failure_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DeliveryFailureReasonType0 | None, data)

        failure_reason = _parse_failure_reason(d.pop("failureReason"))

        attempt_count = d.pop("attemptCount")

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("nextAttemptAt"))

        def _parse_last_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_attempt_at = _parse_last_attempt_at(d.pop("lastAttemptAt"))

        def _parse_last_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_status_code = _parse_last_status_code(d.pop("lastStatusCode"))

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("lastError"))

        def _parse_delivered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                delivered_at_type_0 = datetime.datetime.fromisoformat(data)

                return delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        delivered_at = _parse_delivered_at(d.pop("deliveredAt"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        event = ReceiverEvent.from_dict(d.pop("event"))

        last_latency_ms = d.pop("lastLatencyMs", UNSET)

        delivery = cls(
            id=id,
            endpoint_id=endpoint_id,
            event_id=event_id,
            event_type=event_type,
            status=status,
            failure_reason=failure_reason,
            attempt_count=attempt_count,
            next_attempt_at=next_attempt_at,
            last_attempt_at=last_attempt_at,
            last_status_code=last_status_code,
            last_error=last_error,
            delivered_at=delivered_at,
            created_at=created_at,
            updated_at=updated_at,
            event=event,
            last_latency_ms=last_latency_ms,
        )

        return delivery
