from enum import StrEnum


class UpdateImportLinkRequestOnSourceDelete(StrEnum):
    KEEP = "keep"
    REMOVE = "remove"

    def __str__(self) -> str:
        return str(self.value)
