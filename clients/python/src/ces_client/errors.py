"""Errors a call can raise: one class per kind of answer, each carrying the service's error body
({"error": {"code", "message"}}), the status and the request id to quote to support."""

from __future__ import annotations

import json
from email.utils import parsedate_to_datetime
from typing import Any

import httpx


class ApiError(Exception):
    """A non-2xx answer. ``code`` is the service's error code (``NOT_FOUND``, ``CONFLICT``, ...)."""

    def __init__(self, status: int, body: dict[str, Any], request_id: str | None) -> None:
        error = body["error"]
        super().__init__(f"{status} {error['code']}: {error['message']}")
        self.status = status
        self.body = body
        self.code: str = error["code"]
        self.message: str = error["message"]
        self.request_id = request_id


class ValidationError(ApiError):
    """400 or 422: the request was malformed or failed validation."""


class AuthenticationError(ApiError):
    """401: the API key is missing or invalid."""


class PermissionDeniedError(ApiError):
    """403: the key lacks the permission the operation needs."""


class NotFoundError(ApiError):
    """404: no such resource (or not this organization's)."""


class ConflictError(ApiError):
    """409: the resource's state refuses the operation, or an Idempotency-Key was reused for another request."""


class GoneError(ApiError):
    """410: the resource existed but is gone (an expired connect link)."""


class RateLimitError(ApiError):
    """429: the key's rate limit; the client already retried within its budget."""

    def __init__(
        self, status: int, body: dict[str, Any], request_id: str | None, retry_after: float | None
    ) -> None:
        super().__init__(status, body, request_id)
        #: Seconds the service asked to wait (Retry-After).
        self.retry_after = retry_after


class ServerError(ApiError):
    """5xx: the service failed or is unavailable; the client already retried within its budget."""


_BY_STATUS: dict[int, type[ApiError]] = {
    400: ValidationError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    410: GoneError,
    422: ValidationError,
}


def retry_after_seconds(headers: httpx.Headers) -> float:
    """Retry-After (seconds or an HTTP date) in seconds; 0 when absent or unreadable."""
    value = headers.get("retry-after")
    if not value:
        return 0.0
    if value.strip().isdigit():
        return float(value)
    try:
        from datetime import datetime, timezone

        return max(0.0, (parsedate_to_datetime(value) - datetime.now(timezone.utc)).total_seconds())
    except (TypeError, ValueError):
        return 0.0


def error_for(status: int, content: bytes, headers: httpx.Headers) -> ApiError:
    """The error for a non-2xx answer."""
    try:
        body = json.loads(content)
        if not (
            isinstance(body.get("error", {}).get("code"), str)
            and isinstance(body["error"].get("message"), str)
        ):
            raise TypeError
    except (ValueError, TypeError, AttributeError):
        body = {"error": {"code": "UNKNOWN", "message": f"HTTP {status}"}}
    request_id = headers.get("x-request-id")
    if status == 429:
        return RateLimitError(status, body, request_id, retry_after_seconds(headers) or None)
    kind = _BY_STATUS.get(status, ServerError if status >= 500 else ApiError)
    return kind(status, body, request_id)
