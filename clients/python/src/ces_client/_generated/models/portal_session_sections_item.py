from enum import StrEnum


class PortalSessionSectionsItem(StrEnum):
    CONNECTIONS = "connections"
    WEBHOOKS = "webhooks"

    def __str__(self) -> str:
        return str(self.value)
