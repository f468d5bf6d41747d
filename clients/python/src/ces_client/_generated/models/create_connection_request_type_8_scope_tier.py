from enum import StrEnum


class CreateConnectionRequestType8ScopeTier(StrEnum):
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
