from enum import StrEnum


class ConnectorSyncCompletedDataModeReason(StrEnum):
    FEED_RESTARTED = "feed_restarted"
    RECONCILE_DUE = "reconcile_due"
    REQUESTED = "requested"

    def __str__(self) -> str:
        return str(self.value)
