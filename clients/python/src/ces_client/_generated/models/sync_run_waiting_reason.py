from enum import StrEnum


class SyncRunWaitingReason(StrEnum):
    RETRYING = "retrying"
    THROTTLED = "throttled"

    def __str__(self) -> str:
        return str(self.value)
