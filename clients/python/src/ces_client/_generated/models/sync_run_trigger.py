from enum import StrEnum


class SyncRunTrigger(StrEnum):
    API = "api"
    SCHEDULE = "schedule"

    def __str__(self) -> str:
        return str(self.value)
