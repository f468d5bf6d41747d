from enum import StrEnum


class ProviderParamsItemKind(StrEnum):
    CHOICE = "choice"
    HOST = "host"

    def __str__(self) -> str:
        return str(self.value)
