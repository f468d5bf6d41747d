from enum import StrEnum


class ListConnectionsStatus(StrEnum):
    HEALTHY = "healthy"
    PENDING = "pending"
    REAUTH_REQUIRED = "reauth_required"
    REVOKED = "revoked"
    THROTTLED = "throttled"

    def __str__(self) -> str:
        return str(self.value)
