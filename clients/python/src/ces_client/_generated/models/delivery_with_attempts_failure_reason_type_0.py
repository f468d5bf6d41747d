from enum import StrEnum


class DeliveryWithAttemptsFailureReasonType0(StrEnum):
    DEAD_LETTERED = "dead_lettered"
    ENDPOINT_DELETED = "endpoint_deleted"
    EXHAUSTED = "exhausted"
    REJECTED = "rejected"

    def __str__(self) -> str:
        return str(self.value)
