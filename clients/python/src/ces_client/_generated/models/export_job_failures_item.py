from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.export_job_failures_item_reason import ExportJobFailuresItemReason
from ..types import UNSET, Unset

T = TypeVar("T", bound="ExportJobFailuresItem")


@_attrs_define
class ExportJobFailuresItem:
    """
    Attributes:
        document_id (str):
        reason (ExportJobFailuresItemReason):
        message (str | Unset): What went wrong, for people
    """

    document_id: str
    reason: ExportJobFailuresItemReason
    message: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        document_id = self.document_id

        reason = self.reason.value

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "document_id": document_id,
                "reason": reason,
            }
        )
        if message is not UNSET:
            field_dict["message"] = message

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        document_id = d.pop("document_id")

        reason = ExportJobFailuresItemReason(d.pop("reason"))

        message = d.pop("message", UNSET)

        export_job_failures_item = cls(
            document_id=document_id,
            reason=reason,
            message=message,
        )

        return export_job_failures_item
