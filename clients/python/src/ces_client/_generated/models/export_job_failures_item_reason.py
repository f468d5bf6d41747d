from enum import StrEnum


class ExportJobFailuresItemReason(StrEnum):
    DOCUMENT_NOT_FOUND = "document_not_found"
    INVALID_NAME = "invalid_name"
    NAME_CONFLICT = "name_conflict"
    NOT_OURS = "not_ours"
    PROVIDER_REFUSED = "provider_refused"
    TOO_LARGE = "too_large"

    def __str__(self) -> str:
        return str(self.value)
