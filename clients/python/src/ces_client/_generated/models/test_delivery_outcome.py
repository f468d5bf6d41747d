from enum import StrEnum


class TestDeliveryOutcome(StrEnum):
    DELIVERED = "delivered"
    FAILED = "failed"
    RETRY = "retry"

    def __str__(self) -> str:
        return str(self.value)
