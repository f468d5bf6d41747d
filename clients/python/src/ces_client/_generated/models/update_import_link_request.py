from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.update_import_link_request_on_source_delete import (
    UpdateImportLinkRequestOnSourceDelete,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.update_import_link_request_schedule_type_0 import (
        UpdateImportLinkRequestScheduleType0,
    )


T = TypeVar("T", bound="UpdateImportLinkRequest")


@_attrs_define
class UpdateImportLinkRequest:
    """
    Attributes:
        schedule (None | Unset | UpdateImportLinkRequestScheduleType0):
        paused (bool | Unset): true pauses the link (no scheduled runs, runs refused); false resumes it
        label (None | str | Unset):
        on_source_delete (UpdateImportLinkRequestOnSourceDelete | Unset): A file deleted at the provider: keep its
            document, marked deleted_at_source (default), or remove it from the vault
        reconcile_every_hours (int | Unset): A run of the link is a full (reconciling) run when this many hours passed
            since the last one (default 24): what the provider's change feed does not report is at most this old
    """

    schedule: None | Unset | UpdateImportLinkRequestScheduleType0 = UNSET
    paused: bool | Unset = UNSET
    label: None | str | Unset = UNSET
    on_source_delete: UpdateImportLinkRequestOnSourceDelete | Unset = UNSET
    reconcile_every_hours: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.update_import_link_request_schedule_type_0 import (
            UpdateImportLinkRequestScheduleType0,
        )

        schedule: dict[str, Any] | None | Unset
        if isinstance(self.schedule, Unset):
            schedule = UNSET
        elif isinstance(self.schedule, UpdateImportLinkRequestScheduleType0):
            schedule = self.schedule.to_dict()
        else:
            schedule = self.schedule

        paused = self.paused

        label: None | str | Unset
        if isinstance(self.label, Unset):
            label = UNSET
        else:
            label = self.label

        on_source_delete: str | Unset = UNSET
        if not isinstance(self.on_source_delete, Unset):
            on_source_delete = self.on_source_delete.value

        reconcile_every_hours = self.reconcile_every_hours

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if schedule is not UNSET:
            field_dict["schedule"] = schedule
        if paused is not UNSET:
            field_dict["paused"] = paused
        if label is not UNSET:
            field_dict["label"] = label
        if on_source_delete is not UNSET:
            field_dict["on_source_delete"] = on_source_delete
        if reconcile_every_hours is not UNSET:
            field_dict["reconcile_every_hours"] = reconcile_every_hours

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.update_import_link_request_schedule_type_0 import (
            UpdateImportLinkRequestScheduleType0,
        )

        d = dict(src_dict)

        def _parse_schedule(
            data: object,
        ) -> None | Unset | UpdateImportLinkRequestScheduleType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schedule_type_0 = UpdateImportLinkRequestScheduleType0.from_dict(data)

                return schedule_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UpdateImportLinkRequestScheduleType0, data)

        schedule = _parse_schedule(d.pop("schedule", UNSET))

        paused = d.pop("paused", UNSET)

        def _parse_label(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        label = _parse_label(d.pop("label", UNSET))

        _on_source_delete = d.pop("on_source_delete", UNSET)
        on_source_delete: UpdateImportLinkRequestOnSourceDelete | Unset
        if isinstance(_on_source_delete, Unset):
            on_source_delete = UNSET
        else:
            on_source_delete = UpdateImportLinkRequestOnSourceDelete(_on_source_delete)

        reconcile_every_hours = d.pop("reconcile_every_hours", UNSET)

        update_import_link_request = cls(
            schedule=schedule,
            paused=paused,
            label=label,
            on_source_delete=on_source_delete,
            reconcile_every_hours=reconcile_every_hours,
        )

        return update_import_link_request
