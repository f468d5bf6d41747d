from enum import StrEnum


class ExportJobStatus(StrEnum):
    FAILED = "failed"
    PROCESSING = "processing"
    SKIPPED = "skipped"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
