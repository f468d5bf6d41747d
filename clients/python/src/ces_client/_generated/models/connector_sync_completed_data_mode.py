from enum import StrEnum


class ConnectorSyncCompletedDataMode(StrEnum):
    CHANGES = "changes"
    FULL = "full"

    def __str__(self) -> str:
        return str(self.value)
