from enum import StrEnum


class CreateConnectionRequestType0ScopeTier(StrEnum):
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
