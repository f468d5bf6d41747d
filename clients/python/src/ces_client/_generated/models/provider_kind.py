from enum import StrEnum


class ProviderKind(StrEnum):
    FILE_STORAGE = "file_storage"
    PRACTICE_MANAGEMENT = "practice_management"

    def __str__(self) -> str:
        return str(self.value)
