from enum import StrEnum


class ConnectionDetailProvider(StrEnum):
    BOX = "box"
    CLIO = "clio"
    DRIVE = "drive"
    DROPBOX = "dropbox"
    GOOGLE_DRIVE = "google_drive"
    IMANAGE = "imanage"
    NETDOCUMENTS = "netdocuments"
    ONEDRIVE = "onedrive"
    PRACTICE = "practice"

    def __str__(self) -> str:
        return str(self.value)
