from enum import StrEnum


class DeadLetterKind(StrEnum):
    ATTEMPT = "attempt"
    EVENT = "event"
    RECOVER = "recover"

    def __str__(self) -> str:
        return str(self.value)
