from enum import StrEnum


class WebhookJobStatus(StrEnum):
    FAILED = "failed"
    PROCESSING = "processing"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
