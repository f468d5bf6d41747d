from enum import StrEnum


class CurrentSessionKind(StrEnum):
    CONSOLE = "console"
    PORTAL = "portal"

    def __str__(self) -> str:
        return str(self.value)
