from __future__ import annotations

import datetime
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

from ..models.purge_job_status import PurgeJobStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.purge_job_counts import PurgeJobCounts


T = TypeVar("T", bound="PurgeJob")


@_attrs_define
class PurgeJob:
    """
    Attributes:
        id (str):
        status (PurgeJobStatus): skipped: an import run the schedule did not start (reason says why; nothing was read or
            written)
        connection_id (str):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        kind (Literal['purge']):
        counts (PurgeJobCounts):
        reason (str | Unset): Why the job failed
        finished_at (datetime.datetime | Unset):
    """

    id: str
    status: PurgeJobStatus
    connection_id: str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    kind: Literal["purge"]
    counts: PurgeJobCounts
    reason: str | Unset = UNSET
    finished_at: datetime.datetime | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status = self.status.value

        connection_id = self.connection_id

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        kind = self.kind

        counts = self.counts.to_dict()

        reason = self.reason

        finished_at: str | Unset = UNSET
        if not isinstance(self.finished_at, Unset):
            finished_at = self.finished_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "status": status,
                "connection_id": connection_id,
                "created_at": created_at,
                "updated_at": updated_at,
                "kind": kind,
                "counts": counts,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.purge_job_counts import PurgeJobCounts

        d = dict(src_dict)
        id = d.pop("id")

        status = PurgeJobStatus(d.pop("status"))

        connection_id = d.pop("connection_id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        kind = cast(Literal["purge"], d.pop("kind"))
        if kind != "purge":
            raise ValueError(f"kind must match const 'purge', got '{kind}'")

        counts = PurgeJobCounts.from_dict(d.pop("counts"))

        reason = d.pop("reason", UNSET)

        _finished_at = d.pop("finished_at", UNSET)
        finished_at: datetime.datetime | Unset
        if isinstance(_finished_at, Unset):
            finished_at = UNSET
        else:
            finished_at = datetime.datetime.fromisoformat(_finished_at)

        purge_job = cls(
            id=id,
            status=status,
            connection_id=connection_id,
            created_at=created_at,
            updated_at=updated_at,
            kind=kind,
            counts=counts,
            reason=reason,
            finished_at=finished_at,
        )

        return purge_job
