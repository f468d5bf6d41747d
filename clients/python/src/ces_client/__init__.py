"""Python client for the connector and event service."""

from .client import Client, JobTimeoutError
from .errors import (
    ApiError,
    AuthenticationError,
    ConflictError,
    GoneError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
    ValidationError,
)
from .pagination import Paginated
from .retry import RetryPolicy
from .webhooks import WebhookVerificationError, verify

__all__ = [
    "ApiError",
    "AuthenticationError",
    "Client",
    "ConflictError",
    "GoneError",
    "JobTimeoutError",
    "NotFoundError",
    "Paginated",
    "PermissionDeniedError",
    "RateLimitError",
    "RetryPolicy",
    "ServerError",
    "ValidationError",
    "WebhookVerificationError",
    "verify",
]
