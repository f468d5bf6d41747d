from enum import StrEnum


class DeadLetterQueue(StrEnum):
    DELIVERIES = "deliveries"
    EVENTS = "events"

    def __str__(self) -> str:
        return str(self.value)
