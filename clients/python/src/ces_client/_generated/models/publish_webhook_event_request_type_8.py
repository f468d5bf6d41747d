from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.billing_invoice_created_data import BillingInvoiceCreatedData


T = TypeVar("T", bound="PublishWebhookEventRequestType8")


@_attrs_define
class PublishWebhookEventRequestType8:
    """
    Attributes:
        organization_id (str):
        type_ (Literal['billing.invoice.created']):
        data (BillingInvoiceCreatedData): data of billing.invoice.created: An invoice was issued to the organization
    """

    organization_id: str
    type_: Literal["billing.invoice.created"]
    data: BillingInvoiceCreatedData

    def to_dict(self) -> dict[str, Any]:
        organization_id = self.organization_id

        type_ = self.type_

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "organizationId": organization_id,
                "type": type_,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.billing_invoice_created_data import BillingInvoiceCreatedData

        d = dict(src_dict)
        organization_id = d.pop("organizationId")

        type_ = cast(Literal["billing.invoice.created"], d.pop("type"))
        if type_ != "billing.invoice.created":
            raise ValueError(
                f"type must match const 'billing.invoice.created', got '{type_}'"
            )

        data = BillingInvoiceCreatedData.from_dict(d.pop("data"))

        publish_webhook_event_request_type_8 = cls(
            organization_id=organization_id,
            type_=type_,
            data=data,
        )

        return publish_webhook_event_request_type_8
