from enum import StrEnum


class CreatePortalLinkRequestSectionsItem(StrEnum):
    CONNECTIONS = "connections"
    WEBHOOKS = "webhooks"

    def __str__(self) -> str:
        return str(self.value)
