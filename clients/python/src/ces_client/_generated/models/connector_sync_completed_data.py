from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.connector_sync_completed_data_mode import ConnectorSyncCompletedDataMode
from ..models.connector_sync_completed_data_mode_reason import (
    ConnectorSyncCompletedDataModeReason,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="ConnectorSyncCompletedData")


@_attrs_define
class ConnectorSyncCompletedData:
    """data of connector.sync.completed: An import run of an import link finished its pass

    Attributes:
        connection_id (str): Identifier of the connection
        provider (str): Provider identifier
        link_id (str): Identifier of the import link
        job_id (str): Identifier of the run (a connector job)
        vault_id (str): Identifier of the vault
        mode (ConnectorSyncCompletedDataMode): changes: from the link's cursor; full: every file of the source, then a
            reconcile of the link's documents
        listed (int): Provider files listed (new, changed, unchanged or deleted since the last pass)
        imported (int): Files imported as new vault documents
        updated (int): Vault documents updated with a changed file
        unchanged (int): Files already imported at their current version
        failed (int): Files that could not be imported (too large, gone at the provider)
        deleted (int): Files deleted at the provider whose documents the run marked deleted
        mode_reason (ConnectorSyncCompletedDataModeReason | Unset): Why the run was full: requested, feed_restarted (the
            provider would not continue from the link's cursor), reconcile_due (the link's reconcile period ran out)
    """

    connection_id: str
    provider: str
    link_id: str
    job_id: str
    vault_id: str
    mode: ConnectorSyncCompletedDataMode
    listed: int
    imported: int
    updated: int
    unchanged: int
    failed: int
    deleted: int
    mode_reason: ConnectorSyncCompletedDataModeReason | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        connection_id = self.connection_id

        provider = self.provider

        link_id = self.link_id

        job_id = self.job_id

        vault_id = self.vault_id

        mode = self.mode.value

        listed = self.listed

        imported = self.imported

        updated = self.updated

        unchanged = self.unchanged

        failed = self.failed

        deleted = self.deleted

        mode_reason: str | Unset = UNSET
        if not isinstance(self.mode_reason, Unset):
            mode_reason = self.mode_reason.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "connectionId": connection_id,
                "provider": provider,
                "linkId": link_id,
                "jobId": job_id,
                "vaultId": vault_id,
                "mode": mode,
                "listed": listed,
                "imported": imported,
                "updated": updated,
                "unchanged": unchanged,
                "failed": failed,
                "deleted": deleted,
            }
        )
        if mode_reason is not UNSET:
            field_dict["modeReason"] = mode_reason

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        connection_id = d.pop("connectionId")

        provider = d.pop("provider")

        link_id = d.pop("linkId")

        job_id = d.pop("jobId")

        vault_id = d.pop("vaultId")

        mode = ConnectorSyncCompletedDataMode(d.pop("mode"))

        listed = d.pop("listed")

        imported = d.pop("imported")

        updated = d.pop("updated")

        unchanged = d.pop("unchanged")

        failed = d.pop("failed")

        deleted = d.pop("deleted")

        _mode_reason = d.pop("modeReason", UNSET)
        mode_reason: ConnectorSyncCompletedDataModeReason | Unset
        if isinstance(_mode_reason, Unset):
            mode_reason = UNSET
        else:
            mode_reason = ConnectorSyncCompletedDataModeReason(_mode_reason)

        connector_sync_completed_data = cls(
            connection_id=connection_id,
            provider=provider,
            link_id=link_id,
            job_id=job_id,
            vault_id=vault_id,
            mode=mode,
            listed=listed,
            imported=imported,
            updated=updated,
            unchanged=unchanged,
            failed=failed,
            deleted=deleted,
            mode_reason=mode_reason,
        )

        return connector_sync_completed_data
