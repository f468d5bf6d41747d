from enum import StrEnum


class ExportJobWaitingReason(StrEnum):
    RETRYING = "retrying"
    THROTTLED = "throttled"

    def __str__(self) -> str:
        return str(self.value)
