"""Verifies a delivery per Standard Webhooks (https://www.standardwebhooks.com): ``webhook-signature``
holds one or more ``v1,<base64 HMAC-SHA256 of "id.timestamp.body">``, one per active secret during a
rotation; the key is the base64 after ``whsec_``. Verify the raw body, before any JSON parsing."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal

VerificationFailure = Literal[
    "missing_headers",
    "invalid_timestamp",
    "timestamp_out_of_tolerance",
    "invalid_secret",
    "no_matching_signature",
    "invalid_body",
]


class WebhookVerificationError(Exception):
    def __init__(self, reason: VerificationFailure, message: str) -> None:
        super().__init__(message)
        self.reason: VerificationFailure = reason


def _header(headers: Mapping[str, str], name: str) -> str | None:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


def _key(secret: str) -> bytes:
    encoded = secret.removeprefix("whsec_")
    try:
        key = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        key = b""
    if not key:
        raise WebhookVerificationError("invalid_secret", "The signing secret is empty or not base64")
    return key


def verify(
    payload: bytes | str,
    headers: Mapping[str, str],
    secret: str | Sequence[str],
    *,
    tolerance: int = 300,
    now: int | None = None,
) -> Any:
    """Checks a delivery's signature and timestamp and returns its parsed JSON body; raises
    WebhookVerificationError otherwise. ``secret`` may be several (the new and the previous one while
    you roll a rotation out): any one matching signature is enough."""
    msg_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not msg_id or not timestamp or not signatures:
        raise WebhookVerificationError("missing_headers", "Missing webhook headers")
    if not re.fullmatch(r"\d{1,12}", timestamp):
        raise WebhookVerificationError("invalid_timestamp", "Invalid webhook-timestamp")
    current = int(time.time()) if now is None else now
    if abs(current - int(timestamp)) > tolerance:
        raise WebhookVerificationError("timestamp_out_of_tolerance", "Timestamp outside the tolerance window")
    body = payload.encode("utf-8") if isinstance(payload, str) else payload
    presented: list[bytes] = []
    for entry in signatures.split(" "):
        version, _, value = entry.partition(",")
        if version == "v1" and value:
            try:
                presented.append(base64.b64decode(value))
            except (binascii.Error, ValueError):
                continue
    secrets = [secret] if isinstance(secret, str) else list(secret)
    signed = f"{msg_id}.{timestamp}.".encode() + body
    for candidate in secrets:
        expected = hmac.new(_key(candidate), signed, hashlib.sha256).digest()
        if any(hmac.compare_digest(expected, value) for value in presented):
            break
    else:
        raise WebhookVerificationError("no_matching_signature", "No matching signature")
    try:
        return json.loads(body)
    except ValueError as error:
        raise WebhookVerificationError("invalid_body", "Body is not JSON") from error
