from enum import StrEnum


class CreatePortalLinkRequestType0SectionsItem(StrEnum):
    CONNECTIONS = "connections"
    WEBHOOKS = "webhooks"

    def __str__(self) -> str:
        return str(self.value)
