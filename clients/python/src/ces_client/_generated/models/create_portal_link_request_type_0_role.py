from enum import StrEnum


class CreatePortalLinkRequestType0Role(StrEnum):
    MANAGE = "manage"
    READ_ONLY = "read-only"

    def __str__(self) -> str:
        return str(self.value)
