from enum import StrEnum


class CreateConnectionRequestType1ScopeTier(StrEnum):
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
