"""The transport every call goes through: retries 429 and 5xx answers (and connection failures)
within a bounded budget, waiting what Retry-After asks or a jittered exponential backoff."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import httpx

from .errors import retry_after_seconds


@dataclass(frozen=True)
class RetryPolicy:
    #: Retries after the first attempt; 0 turns retrying off.
    max_retries: int = 3
    #: The most time spent waiting between attempts, all retries together, in seconds.
    budget: float = 30.0
    #: The first backoff when the service gives no Retry-After (doubling), in seconds.
    base_delay: float = 0.5


_SAFE_METHODS = {"GET", "HEAD", "PUT", "DELETE", "OPTIONS"}


def _may_repeat(request: httpx.Request) -> bool:
    # A 429 was refused before any work, so it is always retried; a 5xx or a lost connection may
    # follow work done, so only idempotent methods and requests carrying an Idempotency-Key (the
    # service answers a repeat with the first outcome) are repeated.
    return request.method in _SAFE_METHODS or "idempotency-key" in request.headers


class RetryTransport(httpx.BaseTransport):
    def __init__(
        self,
        policy: RetryPolicy,
        inner: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._policy = policy
        self._inner = inner or httpx.HTTPTransport()
        self._sleep = sleep

    def _backoff(self, attempt: int) -> float:
        ceiling = self._policy.base_delay * 2**attempt
        return ceiling / 2 + random.random() * ceiling / 2

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        waited = 0.0
        attempt = 0
        while True:
            try:
                response = self._inner.handle_request(request)
            except httpx.TransportError:
                wait = self._backoff(attempt)
                if (
                    attempt >= self._policy.max_retries
                    or not _may_repeat(request)
                    or waited + wait > self._policy.budget
                ):
                    raise
            else:
                status = response.status_code
                retryable = status == 429 or (status >= 500 and _may_repeat(request))
                if not retryable or attempt >= self._policy.max_retries:
                    return response
                wait = retry_after_seconds(response.headers) or self._backoff(attempt)
                if waited + wait > self._policy.budget:
                    return response
                response.close()
            waited += wait
            attempt += 1
            self._sleep(wait)

    def close(self) -> None:
        self._inner.close()
