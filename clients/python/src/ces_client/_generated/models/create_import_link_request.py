from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.create_import_link_request_on_source_delete import (
    CreateImportLinkRequestOnSourceDelete,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_import_link_request_schedule import (
        CreateImportLinkRequestSchedule,
    )
    from ..models.create_import_link_request_source import CreateImportLinkRequestSource


T = TypeVar("T", bound="CreateImportLinkRequest")


@_attrs_define
class CreateImportLinkRequest:
    """
    Attributes:
        vault_id (str):
        source (CreateImportLinkRequestSource):
        label (str | Unset):
        schedule (CreateImportLinkRequestSchedule | Unset):
        on_source_delete (CreateImportLinkRequestOnSourceDelete | Unset): A file deleted at the provider: keep its
            document, marked deleted_at_source (default), or remove it from the vault
        reconcile_every_hours (int | Unset): A run of the link is a full (reconciling) run when this many hours passed
            since the last one (default 24): what the provider's change feed does not report is at most this old
    """

    vault_id: str
    source: CreateImportLinkRequestSource
    label: str | Unset = UNSET
    schedule: CreateImportLinkRequestSchedule | Unset = UNSET
    on_source_delete: CreateImportLinkRequestOnSourceDelete | Unset = UNSET
    reconcile_every_hours: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        vault_id = self.vault_id

        source = self.source.to_dict()

        label = self.label

        schedule: dict[str, Any] | Unset = UNSET
        if not isinstance(self.schedule, Unset):
            schedule = self.schedule.to_dict()

        on_source_delete: str | Unset = UNSET
        if not isinstance(self.on_source_delete, Unset):
            on_source_delete = self.on_source_delete.value

        reconcile_every_hours = self.reconcile_every_hours

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "vault_id": vault_id,
                "source": source,
            }
        )
        if label is not UNSET:
            field_dict["label"] = label
        if schedule is not UNSET:
            field_dict["schedule"] = schedule
        if on_source_delete is not UNSET:
            field_dict["on_source_delete"] = on_source_delete
        if reconcile_every_hours is not UNSET:
            field_dict["reconcile_every_hours"] = reconcile_every_hours

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.create_import_link_request_schedule import (
            CreateImportLinkRequestSchedule,
        )
        from ..models.create_import_link_request_source import (
            CreateImportLinkRequestSource,
        )

        d = dict(src_dict)
        vault_id = d.pop("vault_id")

        source = CreateImportLinkRequestSource.from_dict(d.pop("source"))

        label = d.pop("label", UNSET)

        _schedule = d.pop("schedule", UNSET)
        schedule: CreateImportLinkRequestSchedule | Unset
        if isinstance(_schedule, Unset):
            schedule = UNSET
        else:
            schedule = CreateImportLinkRequestSchedule.from_dict(_schedule)

        _on_source_delete = d.pop("on_source_delete", UNSET)
        on_source_delete: CreateImportLinkRequestOnSourceDelete | Unset
        if isinstance(_on_source_delete, Unset):
            on_source_delete = UNSET
        else:
            on_source_delete = CreateImportLinkRequestOnSourceDelete(_on_source_delete)

        reconcile_every_hours = d.pop("reconcile_every_hours", UNSET)

        create_import_link_request = cls(
            vault_id=vault_id,
            source=source,
            label=label,
            schedule=schedule,
            on_source_delete=on_source_delete,
            reconcile_every_hours=reconcile_every_hours,
        )

        return create_import_link_request
