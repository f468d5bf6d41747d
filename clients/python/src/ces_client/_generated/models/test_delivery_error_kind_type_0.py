from enum import StrEnum


class TestDeliveryErrorKindType0(StrEnum):
    BLOCKED_ADDRESS = "blocked_address"
    CONNECTION = "connection"
    DNS = "dns"
    HTTP_STATUS = "http_status"
    INVALID_URL = "invalid_url"
    REDIRECT = "redirect"
    TIMEOUT = "timeout"
    TLS = "tls"

    def __str__(self) -> str:
        return str(self.value)
