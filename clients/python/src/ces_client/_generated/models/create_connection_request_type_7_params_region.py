from enum import StrEnum


class CreateConnectionRequestType7ParamsRegion(StrEnum):
    AU = "au"
    DE = "de"
    EU = "eu"
    US = "us"

    def __str__(self) -> str:
        return str(self.value)
