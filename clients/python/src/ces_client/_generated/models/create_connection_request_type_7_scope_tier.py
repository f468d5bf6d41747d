from enum import StrEnum


class CreateConnectionRequestType7ScopeTier(StrEnum):
    IMPORT = "import"
    IMPORT_EXPORT = "import_export"

    def __str__(self) -> str:
        return str(self.value)
