from enum import StrEnum


class ApiKeySummaryPermissionsItem(StrEnum):
    BILLINGREAD = "billing:read"
    CONNECTORSREAD = "connectors:read"
    CONNECTORSWRITE = "connectors:write"
    DEPLOYMENTSREAD = "deployments:read"
    MATTERSREAD = "matters:read"
    OCRREAD = "ocr:read"
    PORTALREAD = "portal:read"
    PORTALWRITE = "portal:write"
    TRANSCRIPTIONREAD = "transcription:read"
    VAULTSREAD = "vaults:read"
    VAULTSWRITE = "vaults:write"
    WEBHOOKSREAD = "webhooks:read"
    WEBHOOKSWRITE = "webhooks:write"

    def __str__(self) -> str:
        return str(self.value)
