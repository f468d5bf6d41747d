from enum import StrEnum


class CreateConnectionRequestType2ScopeTier(StrEnum):
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
