from enum import StrEnum


class ImportLinkLastRunType0Status(StrEnum):
    FAILED = "failed"
    PROCESSING = "processing"
    SKIPPED = "skipped"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
