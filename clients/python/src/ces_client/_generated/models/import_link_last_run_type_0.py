from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.import_link_last_run_type_0_status import ImportLinkLastRunType0Status
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.sync_counts import SyncCounts


T = TypeVar("T", bound="ImportLinkLastRunType0")


@_attrs_define
class ImportLinkLastRunType0:
    """
    Attributes:
        job_id (str):
        status (ImportLinkLastRunType0Status): skipped: an import run the schedule did not start (reason says why;
            nothing was read or written)
        finished_at (datetime.datetime):
        counts (SyncCounts):
        reason (str | Unset):
    """

    job_id: str
    status: ImportLinkLastRunType0Status
    finished_at: datetime.datetime
    counts: SyncCounts
    reason: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        job_id = self.job_id

        status = self.status.value

        finished_at = self.finished_at.isoformat()

        counts = self.counts.to_dict()

        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "job_id": job_id,
                "status": status,
                "finished_at": finished_at,
                "counts": counts,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.sync_counts import SyncCounts

        d = dict(src_dict)
        job_id = d.pop("job_id")

        status = ImportLinkLastRunType0Status(d.pop("status"))

        finished_at = datetime.datetime.fromisoformat(d.pop("finished_at"))

        counts = SyncCounts.from_dict(d.pop("counts"))

        reason = d.pop("reason", UNSET)

        import_link_last_run_type_0 = cls(
            job_id=job_id,
            status=status,
            finished_at=finished_at,
            counts=counts,
            reason=reason,
        )

        return import_link_last_run_type_0
