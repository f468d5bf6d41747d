from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.test_delivery_error_kind_type_0 import TestDeliveryErrorKindType0
from ..models.test_delivery_outcome import TestDeliveryOutcome

T = TypeVar("T", bound="TestDelivery")


@_attrs_define
class TestDelivery:
    """
    Attributes:
        event_id (str):
        delivered (bool):
        outcome (TestDeliveryOutcome):
        status_code (int | None): The receiver's HTTP status, when it answered
        error_kind (None | TestDeliveryErrorKindType0):
        error_message (None | str):
        latency_ms (int):
        response_body (str): The first 16 KiB of the receiver's answer
    """

    event_id: str
    delivered: bool
    outcome: TestDeliveryOutcome
    status_code: int | None
    error_kind: None | TestDeliveryErrorKindType0
    error_message: None | str
    latency_ms: int
    response_body: str

    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        delivered = self.delivered

        outcome = self.outcome.value

        status_code: int | None
        status_code = self.status_code

        error_kind: None | str
        if isinstance(self.error_kind, TestDeliveryErrorKindType0):
            error_kind = self.error_kind.value
        else:
            error_kind = self.error_kind

        error_message: None | str
        error_message = self.error_message

        latency_ms = self.latency_ms

        response_body = self.response_body

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "eventId": event_id,
                "delivered": delivered,
                "outcome": outcome,
                "statusCode": status_code,
                "errorKind": error_kind,
                "errorMessage": error_message,
                "latencyMs": latency_ms,
                "responseBody": response_body,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event_id = d.pop("eventId")

        delivered = d.pop("delivered")

        outcome = TestDeliveryOutcome(d.pop("outcome"))

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("statusCode"))

        def _parse_error_kind(data: object) -> None | TestDeliveryErrorKindType0:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                error_kind_type_0 = TestDeliveryErrorKindType0(data)

                return error_kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TestDeliveryErrorKindType0, data)

        error_kind = _parse_error_kind(d.pop("errorKind"))

        def _parse_error_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error_message = _parse_error_message(d.pop("errorMessage"))

        latency_ms = d.pop("latencyMs")

        response_body = d.pop("responseBody")

        test_delivery = cls(
            event_id=event_id,
            delivered=delivered,
            outcome=outcome,
            status_code=status_code,
            error_kind=error_kind,
            error_message=error_message,
            latency_ms=latency_ms,
            response_body=response_body,
        )

        return test_delivery
