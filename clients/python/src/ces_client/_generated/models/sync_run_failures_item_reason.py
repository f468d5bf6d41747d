from enum import StrEnum


class SyncRunFailuresItemReason(StrEnum):
    NOT_FOUND_AT_PROVIDER = "not_found_at_provider"
    TOO_LARGE = "too_large"

    def __str__(self) -> str:
        return str(self.value)
