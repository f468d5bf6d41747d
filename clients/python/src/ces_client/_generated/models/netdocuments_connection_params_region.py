from enum import StrEnum


class NetdocumentsConnectionParamsRegion(StrEnum):
    AU = "au"
    DE = "de"
    EU = "eu"
    US = "us"

    def __str__(self) -> str:
        return str(self.value)
