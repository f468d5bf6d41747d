from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.delivery_attempt_error_kind_type_0 import DeliveryAttemptErrorKindType0
from ..models.delivery_attempt_outcome import DeliveryAttemptOutcome
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.delivery_attempt_request_headers import DeliveryAttemptRequestHeaders
    from ..models.delivery_attempt_response_headers import (
        DeliveryAttemptResponseHeaders,
    )


T = TypeVar("T", bound="DeliveryAttempt")


@_attrs_define
class DeliveryAttempt:
    """
    Attributes:
        attempt (int):
        attempted_at (datetime.datetime):
        outcome (DeliveryAttemptOutcome):
        status_code (int | None): The receiver's HTTP status, when it answered
        error_kind (DeliveryAttemptErrorKindType0 | None):
        error_message (None | str):
        latency_ms (int):
        response_body (str): The first 16 KiB of the receiver's answer
        request_headers (DeliveryAttemptRequestHeaders | Unset): The headers sent; each webhook-signature cut to its
            version prefix (v1,…)
        response_headers (DeliveryAttemptResponseHeaders | Unset): The receiver's response headers (the first 50, values
            cut at 500 characters)
    """

    attempt: int
    attempted_at: datetime.datetime
    outcome: DeliveryAttemptOutcome
    status_code: int | None
    error_kind: DeliveryAttemptErrorKindType0 | None
    error_message: None | str
    latency_ms: int
    response_body: str
    request_headers: DeliveryAttemptRequestHeaders | Unset = UNSET
    response_headers: DeliveryAttemptResponseHeaders | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        attempt = self.attempt

        attempted_at = self.attempted_at.isoformat()

        outcome = self.outcome.value

        status_code: int | None
        status_code = self.status_code

        error_kind: None | str
        if isinstance(self.error_kind, DeliveryAttemptErrorKindType0):
            error_kind = self.error_kind.value
        else:
            error_kind = self.error_kind

        error_message: None | str
        error_message = self.error_message

        latency_ms = self.latency_ms

        response_body = self.response_body

        request_headers: dict[str, Any] | Unset = UNSET
        if not isinstance(self.request_headers, Unset):
            request_headers = self.request_headers.to_dict()

        response_headers: dict[str, Any] | Unset = UNSET
        if not isinstance(self.response_headers, Unset):
            response_headers = self.response_headers.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempt": attempt,
                "attemptedAt": attempted_at,
                "outcome": outcome,
                "statusCode": status_code,
                "errorKind": error_kind,
                "errorMessage": error_message,
                "latencyMs": latency_ms,
                "responseBody": response_body,
            }
        )
        if request_headers is not UNSET:
            field_dict["requestHeaders"] = request_headers
        if response_headers is not UNSET:
            field_dict["responseHeaders"] = response_headers

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.delivery_attempt_request_headers import (
            DeliveryAttemptRequestHeaders,
        )
        from ..models.delivery_attempt_response_headers import (
            DeliveryAttemptResponseHeaders,
        )

        d = dict(src_dict)
        attempt = d.pop("attempt")

        attempted_at = datetime.datetime.fromisoformat(d.pop("attemptedAt"))

        outcome = DeliveryAttemptOutcome(d.pop("outcome"))

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("statusCode"))

        def _parse_error_kind(data: object) -> DeliveryAttemptErrorKindType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                error_kind_type_0 = DeliveryAttemptErrorKindType0(data)

                return error_kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DeliveryAttemptErrorKindType0 | None, data)

        error_kind = _parse_error_kind(d.pop("errorKind"))

        def _parse_error_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error_message = _parse_error_message(d.pop("errorMessage"))

        latency_ms = d.pop("latencyMs")

        response_body = d.pop("responseBody")

        _request_headers = d.pop("requestHeaders", UNSET)
        request_headers: DeliveryAttemptRequestHeaders | Unset
        if isinstance(_request_headers, Unset):
            request_headers = UNSET
        else:
            request_headers = DeliveryAttemptRequestHeaders.from_dict(_request_headers)

        _response_headers = d.pop("responseHeaders", UNSET)
        response_headers: DeliveryAttemptResponseHeaders | Unset
        if isinstance(_response_headers, Unset):
            response_headers = UNSET
        else:
            response_headers = DeliveryAttemptResponseHeaders.from_dict(
                _response_headers
            )

        delivery_attempt = cls(
            attempt=attempt,
            attempted_at=attempted_at,
            outcome=outcome,
            status_code=status_code,
            error_kind=error_kind,
            error_message=error_message,
            latency_ms=latency_ms,
            response_body=response_body,
            request_headers=request_headers,
            response_headers=response_headers,
        )

        return delivery_attempt
