from enum import StrEnum


class ImportLinkStatus(StrEnum):
    IDLE = "idle"
    RUNNING = "running"
    SOURCE_MISSING = "source_missing"

    def __str__(self) -> str:
        return str(self.value)
