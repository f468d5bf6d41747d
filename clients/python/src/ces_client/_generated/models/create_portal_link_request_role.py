from enum import StrEnum


class CreatePortalLinkRequestRole(StrEnum):
    ADMIN = "admin"
    MANAGE = "manage"
    MEMBER = "member"
    OWNER = "owner"
    READ_ONLY = "read-only"

    def __str__(self) -> str:
        return str(self.value)
