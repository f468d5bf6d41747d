from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="BillingInvoiceCreatedData")


@_attrs_define
class BillingInvoiceCreatedData:
    """data of billing.invoice.created: An invoice was issued to the organization

    Attributes:
        invoice_id (str): Identifier of the invoice
        amount_due (int): Amount due in the smallest unit of the currency
        currency (str): ISO 4217 currency code
    """

    invoice_id: str
    amount_due: int
    currency: str

    def to_dict(self) -> dict[str, Any]:
        invoice_id = self.invoice_id

        amount_due = self.amount_due

        currency = self.currency

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "invoiceId": invoice_id,
                "amountDue": amount_due,
                "currency": currency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        invoice_id = d.pop("invoiceId")

        amount_due = d.pop("amountDue")

        currency = d.pop("currency")

        billing_invoice_created_data = cls(
            invoice_id=invoice_id,
            amount_due=amount_due,
            currency=currency,
        )

        return billing_invoice_created_data
