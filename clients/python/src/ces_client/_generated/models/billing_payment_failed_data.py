from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="BillingPaymentFailedData")


@_attrs_define
class BillingPaymentFailedData:
    """data of billing.payment.failed: A payment for an invoice failed

    Attributes:
        invoice_id (str): Identifier of the invoice
        error_code (str): Machine-readable reason
        message (str): Human-readable reason
    """

    invoice_id: str
    error_code: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        invoice_id = self.invoice_id

        error_code = self.error_code

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "invoiceId": invoice_id,
                "errorCode": error_code,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        invoice_id = d.pop("invoiceId")

        error_code = d.pop("errorCode")

        message = d.pop("message")

        billing_payment_failed_data = cls(
            invoice_id=invoice_id,
            error_code=error_code,
            message=message,
        )

        return billing_payment_failed_data
