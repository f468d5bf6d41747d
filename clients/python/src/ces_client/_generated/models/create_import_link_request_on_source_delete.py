from enum import StrEnum


class CreateImportLinkRequestOnSourceDelete(StrEnum):
    KEEP = "keep"
    REMOVE = "remove"

    def __str__(self) -> str:
        return str(self.value)
