from enum import StrEnum


class CreatePortalLinkRequestType1Role(StrEnum):
    ADMIN = "admin"
    MEMBER = "member"
    OWNER = "owner"

    def __str__(self) -> str:
        return str(self.value)
