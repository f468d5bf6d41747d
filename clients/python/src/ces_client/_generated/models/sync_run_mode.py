from enum import StrEnum


class SyncRunMode(StrEnum):
    CHANGES = "changes"
    FULL = "full"

    def __str__(self) -> str:
        return str(self.value)
