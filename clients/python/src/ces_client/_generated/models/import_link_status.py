from enum import StrEnum


class ImportLinkStatus(StrEnum):
    IDLE = "idle"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
