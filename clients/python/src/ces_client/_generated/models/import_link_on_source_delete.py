from enum import StrEnum


class ImportLinkOnSourceDelete(StrEnum):
    KEEP = "keep"
    REMOVE = "remove"

    def __str__(self) -> str:
        return str(self.value)
