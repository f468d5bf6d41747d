from enum import StrEnum


class CreatePortalLinkRequestKind(StrEnum):
    CONSOLE = "console"
    PORTAL = "portal"

    def __str__(self) -> str:
        return str(self.value)
