from enum import StrEnum


class LinkDocumentStatus(StrEnum):
    DELETED_AT_SOURCE = "deleted_at_source"
    IMPORTED = "imported"
    IMPORTING = "importing"
    REMOVED_FROM_VAULT = "removed_from_vault"
    SOURCE_MISSING = "source_missing"

    def __str__(self) -> str:
        return str(self.value)
