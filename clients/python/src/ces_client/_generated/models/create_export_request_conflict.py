from enum import StrEnum


class CreateExportRequestConflict(StrEnum):
    FAIL = "fail"
    RENAME = "rename"
    REPLACE = "replace"
    SKIP = "skip"

    def __str__(self) -> str:
        return str(self.value)
