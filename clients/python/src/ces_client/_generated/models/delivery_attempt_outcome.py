from enum import StrEnum


class DeliveryAttemptOutcome(StrEnum):
    DELIVERED = "delivered"
    FAILED = "failed"
    RETRY = "retry"

    def __str__(self) -> str:
        return str(self.value)
