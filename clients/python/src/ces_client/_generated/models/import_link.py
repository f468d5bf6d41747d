from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.import_link_on_source_delete import ImportLinkOnSourceDelete
from ..models.import_link_status import ImportLinkStatus

if TYPE_CHECKING:
    from ..models.import_link_last_run_type_0 import ImportLinkLastRunType0
    from ..models.import_link_last_skipped_type_0 import ImportLinkLastSkippedType0
    from ..models.import_link_schedule_type_0 import ImportLinkScheduleType0
    from ..models.import_link_source import ImportLinkSource


T = TypeVar("T", bound="ImportLink")


@_attrs_define
class ImportLink:
    """
    Attributes:
        id (str):
        connection_id (str):
        vault_id (str): The vault's id (the vault area's)
        source (ImportLinkSource):
        label (None | str): The link's own label, for people
        on_source_delete (ImportLinkOnSourceDelete): A file deleted at the provider: its document is kept and marked
            deleted_at_source (keep), or removed from the vault (remove)
        schedule (ImportLinkScheduleType0 | None):
        reconcile_every_hours (int): A run is a full (reconciling) run once this many hours passed since the last one:
            the most a changes run can lag its source
        paused (bool): A paused link is out of its schedule and refuses new runs until resumed
        status (ImportLinkStatus): source_missing: the linked container is gone at the provider (its documents show as
            source_missing); a run that finds it again brings the link back
        active_run_id (None | str): The run in flight (a job), if any
        last_run (ImportLinkLastRunType0 | None):
        next_run_at (datetime.datetime | None): When the schedule runs it next
        last_skipped (ImportLinkLastSkippedType0 | None): The last scheduled run that did not start, and why
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: str
    connection_id: str
    vault_id: str
    source: ImportLinkSource
    label: None | str
    on_source_delete: ImportLinkOnSourceDelete
    schedule: ImportLinkScheduleType0 | None
    reconcile_every_hours: int
    paused: bool
    status: ImportLinkStatus
    active_run_id: None | str
    last_run: ImportLinkLastRunType0 | None
    next_run_at: datetime.datetime | None
    last_skipped: ImportLinkLastSkippedType0 | None
    created_at: datetime.datetime
    updated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        from ..models.import_link_last_run_type_0 import ImportLinkLastRunType0
        from ..models.import_link_last_skipped_type_0 import ImportLinkLastSkippedType0
        from ..models.import_link_schedule_type_0 import ImportLinkScheduleType0

        id = self.id

        connection_id = self.connection_id

        vault_id = self.vault_id

        source = self.source.to_dict()

        label: None | str
        label = self.label

        on_source_delete = self.on_source_delete.value

        schedule: dict[str, Any] | None
        if isinstance(self.schedule, ImportLinkScheduleType0):
            schedule = self.schedule.to_dict()
        else:
            schedule = self.schedule

        reconcile_every_hours = self.reconcile_every_hours

        paused = self.paused

        status = self.status.value

        active_run_id: None | str
        active_run_id = self.active_run_id

        last_run: dict[str, Any] | None
        if isinstance(self.last_run, ImportLinkLastRunType0):
            last_run = self.last_run.to_dict()
        else:
            last_run = self.last_run

        next_run_at: None | str
        if isinstance(self.next_run_at, datetime.datetime):
            next_run_at = self.next_run_at.isoformat()
        else:
            next_run_at = self.next_run_at

        last_skipped: dict[str, Any] | None
        if isinstance(self.last_skipped, ImportLinkLastSkippedType0):
            last_skipped = self.last_skipped.to_dict()
        else:
            last_skipped = self.last_skipped

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "connection_id": connection_id,
                "vault_id": vault_id,
                "source": source,
                "label": label,
                "on_source_delete": on_source_delete,
                "schedule": schedule,
                "reconcile_every_hours": reconcile_every_hours,
                "paused": paused,
                "status": status,
                "active_run_id": active_run_id,
                "last_run": last_run,
                "next_run_at": next_run_at,
                "last_skipped": last_skipped,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.import_link_last_run_type_0 import ImportLinkLastRunType0
        from ..models.import_link_last_skipped_type_0 import ImportLinkLastSkippedType0
        from ..models.import_link_schedule_type_0 import ImportLinkScheduleType0
        from ..models.import_link_source import ImportLinkSource

        d = dict(src_dict)
        id = d.pop("id")

        connection_id = d.pop("connection_id")

        vault_id = d.pop("vault_id")

        source = ImportLinkSource.from_dict(d.pop("source"))

        def _parse_label(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        label = _parse_label(d.pop("label"))

        on_source_delete = ImportLinkOnSourceDelete(d.pop("on_source_delete"))

        def _parse_schedule(data: object) -> ImportLinkScheduleType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schedule_type_0 = ImportLinkScheduleType0.from_dict(data)

                return schedule_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ImportLinkScheduleType0 | None, data)

        schedule = _parse_schedule(d.pop("schedule"))

        reconcile_every_hours = d.pop("reconcile_every_hours")

        paused = d.pop("paused")

        status = ImportLinkStatus(d.pop("status"))

        def _parse_active_run_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        active_run_id = _parse_active_run_id(d.pop("active_run_id"))

        def _parse_last_run(data: object) -> ImportLinkLastRunType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_run_type_0 = ImportLinkLastRunType0.from_dict(data)

                return last_run_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ImportLinkLastRunType0 | None, data)

        last_run = _parse_last_run(d.pop("last_run"))

        def _parse_next_run_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_run_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_run_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_run_at = _parse_next_run_at(d.pop("next_run_at"))

        def _parse_last_skipped(data: object) -> ImportLinkLastSkippedType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_skipped_type_0 = ImportLinkLastSkippedType0.from_dict(data)

                return last_skipped_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ImportLinkLastSkippedType0 | None, data)

        last_skipped = _parse_last_skipped(d.pop("last_skipped"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        import_link = cls(
            id=id,
            connection_id=connection_id,
            vault_id=vault_id,
            source=source,
            label=label,
            on_source_delete=on_source_delete,
            schedule=schedule,
            reconcile_every_hours=reconcile_every_hours,
            paused=paused,
            status=status,
            active_run_id=active_run_id,
            last_run=last_run,
            next_run_at=next_run_at,
            last_skipped=last_skipped,
            created_at=created_at,
            updated_at=updated_at,
        )

        return import_link
