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

from ..models.export_job_conflict import ExportJobConflict
from ..models.export_job_status import ExportJobStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.export_job_counts import ExportJobCounts
    from ..models.export_job_destination import ExportJobDestination
    from ..models.export_job_failures_item import ExportJobFailuresItem
    from ..models.export_job_waiting import ExportJobWaiting


T = TypeVar("T", bound="ExportJob")


@_attrs_define
class ExportJob:
    """
    Attributes:
        id (str):
        status (ExportJobStatus): skipped: an import run the schedule did not start (reason says why; nothing was read
            or written)
        connection_id (str):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        kind (Literal['export']):
        vault_id (str): The vault's id (the vault area's)
        destination (ExportJobDestination):
        conflict (ExportJobConflict): What the export does with a name already taken at the destination
        counts (ExportJobCounts):
        failures (list[ExportJobFailuresItem]): The first 20 documents that could not be exported, each with its reason
        reason (str | Unset): Why the job failed
        finished_at (datetime.datetime | Unset):
        message (str | Unset): What the failure reason means, for people
        waiting (ExportJobWaiting | Unset): Present while the job waits before its next step
    """

    id: str
    status: ExportJobStatus
    connection_id: str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    kind: Literal["export"]
    vault_id: str
    destination: ExportJobDestination
    conflict: ExportJobConflict
    counts: ExportJobCounts
    failures: list[ExportJobFailuresItem]
    reason: str | Unset = UNSET
    finished_at: datetime.datetime | Unset = UNSET
    message: str | Unset = UNSET
    waiting: ExportJobWaiting | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status = self.status.value

        connection_id = self.connection_id

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        kind = self.kind

        vault_id = self.vault_id

        destination = self.destination.to_dict()

        conflict = self.conflict.value

        counts = self.counts.to_dict()

        failures = []
        for failures_item_data in self.failures:
            failures_item = failures_item_data.to_dict()
            failures.append(failures_item)

        reason = self.reason

        finished_at: str | Unset = UNSET
        if not isinstance(self.finished_at, Unset):
            finished_at = self.finished_at.isoformat()

        message = self.message

        waiting: dict[str, Any] | Unset = UNSET
        if not isinstance(self.waiting, Unset):
            waiting = self.waiting.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "status": status,
                "connection_id": connection_id,
                "created_at": created_at,
                "updated_at": updated_at,
                "kind": kind,
                "vault_id": vault_id,
                "destination": destination,
                "conflict": conflict,
                "counts": counts,
                "failures": failures,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at
        if message is not UNSET:
            field_dict["message"] = message
        if waiting is not UNSET:
            field_dict["waiting"] = waiting

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.export_job_counts import ExportJobCounts
        from ..models.export_job_destination import ExportJobDestination
        from ..models.export_job_failures_item import ExportJobFailuresItem
        from ..models.export_job_waiting import ExportJobWaiting

        d = dict(src_dict)
        id = d.pop("id")

        status = ExportJobStatus(d.pop("status"))

        connection_id = d.pop("connection_id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        kind = cast(Literal["export"], d.pop("kind"))
        if kind != "export":
            raise ValueError(f"kind must match const 'export', got '{kind}'")

        vault_id = d.pop("vault_id")

        destination = ExportJobDestination.from_dict(d.pop("destination"))

        conflict = ExportJobConflict(d.pop("conflict"))

        counts = ExportJobCounts.from_dict(d.pop("counts"))

        failures = []
        _failures = d.pop("failures")
        for failures_item_data in _failures:
            failures_item = ExportJobFailuresItem.from_dict(failures_item_data)

            failures.append(failures_item)

        reason = d.pop("reason", UNSET)

        _finished_at = d.pop("finished_at", UNSET)
        finished_at: datetime.datetime | Unset
        if isinstance(_finished_at, Unset):
            finished_at = UNSET
        else:
            finished_at = datetime.datetime.fromisoformat(_finished_at)

        message = d.pop("message", UNSET)

        _waiting = d.pop("waiting", UNSET)
        waiting: ExportJobWaiting | Unset
        if isinstance(_waiting, Unset):
            waiting = UNSET
        else:
            waiting = ExportJobWaiting.from_dict(_waiting)

        export_job = cls(
            id=id,
            status=status,
            connection_id=connection_id,
            created_at=created_at,
            updated_at=updated_at,
            kind=kind,
            vault_id=vault_id,
            destination=destination,
            conflict=conflict,
            counts=counts,
            failures=failures,
            reason=reason,
            finished_at=finished_at,
            message=message,
            waiting=waiting,
        )

        return export_job
