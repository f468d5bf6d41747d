from enum import StrEnum


class DeliveryStatus(StrEnum):
    DELIVERED = "delivered"
    FAILED = "failed"
    PENDING = "pending"
    RETRYING = "retrying"
    SKIPPED_DISABLED = "skipped_disabled"

    def __str__(self) -> str:
        return str(self.value)
