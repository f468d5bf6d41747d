from enum import StrEnum


class CurrentSessionSectionsItem(StrEnum):
    CONNECTIONS = "connections"
    WEBHOOKS = "webhooks"

    def __str__(self) -> str:
        return str(self.value)
