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

from ..models.sync_run_mode import SyncRunMode
from ..models.sync_run_mode_reason import SyncRunModeReason
from ..models.sync_run_status import SyncRunStatus
from ..models.sync_run_trigger import SyncRunTrigger
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.sync_counts import SyncCounts
    from ..models.sync_run_failures_item import SyncRunFailuresItem
    from ..models.sync_run_waiting import SyncRunWaiting


T = TypeVar("T", bound="SyncRun")


@_attrs_define
class SyncRun:
    """
    Attributes:
        id (str):
        status (SyncRunStatus): skipped: an import run the schedule did not start (reason says why; nothing was read or
            written)
        connection_id (str):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        kind (Literal['sync']):
        link_id (str):
        vault_id (str): The vault's id (the vault area's)
        trigger (SyncRunTrigger):
        mode (SyncRunMode): changes: from the link's cursor; full: every file of the source, then documents it no longer
            holds marked deleted
        counts (SyncCounts):
        failures (list[SyncRunFailuresItem]): The first 20 files that could not be imported
        reason (str | Unset): Why the job failed
        finished_at (datetime.datetime | Unset):
        message (str | Unset): What the failure reason means, for people
        mode_reason (SyncRunModeReason | Unset): Why the run is full: asked for; the provider would not continue from
            the link's cursor (the run became full); the link's reconcile period (reconcile_every_hours) ran out
        waiting (SyncRunWaiting | Unset): Present while the job waits before its next step
    """

    id: str
    status: SyncRunStatus
    connection_id: str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    kind: Literal["sync"]
    link_id: str
    vault_id: str
    trigger: SyncRunTrigger
    mode: SyncRunMode
    counts: SyncCounts
    failures: list[SyncRunFailuresItem]
    reason: str | Unset = UNSET
    finished_at: datetime.datetime | Unset = UNSET
    message: str | Unset = UNSET
    mode_reason: SyncRunModeReason | Unset = UNSET
    waiting: SyncRunWaiting | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status = self.status.value

        connection_id = self.connection_id

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        kind = self.kind

        link_id = self.link_id

        vault_id = self.vault_id

        trigger = self.trigger.value

        mode = self.mode.value

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

        mode_reason: str | Unset = UNSET
        if not isinstance(self.mode_reason, Unset):
            mode_reason = self.mode_reason.value

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
                "link_id": link_id,
                "vault_id": vault_id,
                "trigger": trigger,
                "mode": mode,
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
        if mode_reason is not UNSET:
            field_dict["mode_reason"] = mode_reason
        if waiting is not UNSET:
            field_dict["waiting"] = waiting

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.sync_counts import SyncCounts
        from ..models.sync_run_failures_item import SyncRunFailuresItem
        from ..models.sync_run_waiting import SyncRunWaiting

        d = dict(src_dict)
        id = d.pop("id")

        status = SyncRunStatus(d.pop("status"))

        connection_id = d.pop("connection_id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        kind = cast(Literal["sync"], d.pop("kind"))
        if kind != "sync":
            raise ValueError(f"kind must match const 'sync', got '{kind}'")

        link_id = d.pop("link_id")

        vault_id = d.pop("vault_id")

        trigger = SyncRunTrigger(d.pop("trigger"))

        mode = SyncRunMode(d.pop("mode"))

        counts = SyncCounts.from_dict(d.pop("counts"))

        failures = []
        _failures = d.pop("failures")
        for failures_item_data in _failures:
            failures_item = SyncRunFailuresItem.from_dict(failures_item_data)

            failures.append(failures_item)

        reason = d.pop("reason", UNSET)

        _finished_at = d.pop("finished_at", UNSET)
        finished_at: datetime.datetime | Unset
        if isinstance(_finished_at, Unset):
            finished_at = UNSET
        else:
            finished_at = datetime.datetime.fromisoformat(_finished_at)

        message = d.pop("message", UNSET)

        _mode_reason = d.pop("mode_reason", UNSET)
        mode_reason: SyncRunModeReason | Unset
        if isinstance(_mode_reason, Unset):
            mode_reason = UNSET
        else:
            mode_reason = SyncRunModeReason(_mode_reason)

        _waiting = d.pop("waiting", UNSET)
        waiting: SyncRunWaiting | Unset
        if isinstance(_waiting, Unset):
            waiting = UNSET
        else:
            waiting = SyncRunWaiting.from_dict(_waiting)

        sync_run = cls(
            id=id,
            status=status,
            connection_id=connection_id,
            created_at=created_at,
            updated_at=updated_at,
            kind=kind,
            link_id=link_id,
            vault_id=vault_id,
            trigger=trigger,
            mode=mode,
            counts=counts,
            failures=failures,
            reason=reason,
            finished_at=finished_at,
            message=message,
            mode_reason=mode_reason,
            waiting=waiting,
        )

        return sync_run
