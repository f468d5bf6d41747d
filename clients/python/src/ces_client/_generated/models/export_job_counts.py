from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="ExportJobCounts")


@_attrs_define
class ExportJobCounts:
    """
    Attributes:
        requested (int): Documents asked for (each once)
        exported (int): Documents uploaded
        unchanged (int): Documents whose version was already exported there
        skipped (int): Documents left out because their name was taken (conflict: skip)
        failed (int): Documents that could not be exported (listed in failures)
    """

    requested: int
    exported: int
    unchanged: int
    skipped: int
    failed: int

    def to_dict(self) -> dict[str, Any]:
        requested = self.requested

        exported = self.exported

        unchanged = self.unchanged

        skipped = self.skipped

        failed = self.failed

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "requested": requested,
                "exported": exported,
                "unchanged": unchanged,
                "skipped": skipped,
                "failed": failed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        requested = d.pop("requested")

        exported = d.pop("exported")

        unchanged = d.pop("unchanged")

        skipped = d.pop("skipped")

        failed = d.pop("failed")

        export_job_counts = cls(
            requested=requested,
            exported=exported,
            unchanged=unchanged,
            skipped=skipped,
            failed=failed,
        )

        return export_job_counts
