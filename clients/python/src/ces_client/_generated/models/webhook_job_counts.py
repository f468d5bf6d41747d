from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="WebhookJobCounts")


@_attrs_define
class WebhookJobCounts:
    """
    Attributes:
        matched (int):
        replayed (int):
        failed (int):
    """

    matched: int
    replayed: int
    failed: int

    def to_dict(self) -> dict[str, Any]:
        matched = self.matched

        replayed = self.replayed

        failed = self.failed

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "matched": matched,
                "replayed": replayed,
                "failed": failed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        matched = d.pop("matched")

        replayed = d.pop("replayed")

        failed = d.pop("failed")

        webhook_job_counts = cls(
            matched=matched,
            replayed=replayed,
            failed=failed,
        )

        return webhook_job_counts
