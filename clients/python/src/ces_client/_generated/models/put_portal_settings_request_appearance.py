from enum import StrEnum


class PutPortalSettingsRequestAppearance(StrEnum):
    DARK = "dark"
    LIGHT = "light"
    SYSTEM = "system"

    def __str__(self) -> str:
        return str(self.value)
