from enum import StrEnum


class SourceKind(StrEnum):
    CONTAINER = "container"
    FILE = "file"

    def __str__(self) -> str:
        return str(self.value)
