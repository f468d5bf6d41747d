from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="ConnectorExportCompletedData")


@_attrs_define
class ConnectorExportCompletedData:
    """data of connector.export.completed: An export of vault documents to a provider finished

    Attributes:
        connection_id (str): Identifier of the connection
        provider (str): Provider identifier
        job_id (str): Identifier of the export (a connector job)
        vault_id (str): Identifier of the vault
        destination_id (str): Identifier of the provider container the documents went to
        requested (int): Documents asked for
        exported (int): Documents uploaded
        unchanged (int): Documents whose version was already exported there
        skipped (int): Documents left out because their name was taken there (conflict: skip)
        failed (int): Documents that could not be exported (missing, too large, a name refused or taken, refused by the
            provider)
    """

    connection_id: str
    provider: str
    job_id: str
    vault_id: str
    destination_id: str
    requested: int
    exported: int
    unchanged: int
    skipped: int
    failed: int

    def to_dict(self) -> dict[str, Any]:
        connection_id = self.connection_id

        provider = self.provider

        job_id = self.job_id

        vault_id = self.vault_id

        destination_id = self.destination_id

        requested = self.requested

        exported = self.exported

        unchanged = self.unchanged

        skipped = self.skipped

        failed = self.failed

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "connectionId": connection_id,
                "provider": provider,
                "jobId": job_id,
                "vaultId": vault_id,
                "destinationId": destination_id,
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
        connection_id = d.pop("connectionId")

        provider = d.pop("provider")

        job_id = d.pop("jobId")

        vault_id = d.pop("vaultId")

        destination_id = d.pop("destinationId")

        requested = d.pop("requested")

        exported = d.pop("exported")

        unchanged = d.pop("unchanged")

        skipped = d.pop("skipped")

        failed = d.pop("failed")

        connector_export_completed_data = cls(
            connection_id=connection_id,
            provider=provider,
            job_id=job_id,
            vault_id=vault_id,
            destination_id=destination_id,
            requested=requested,
            exported=exported,
            unchanged=unchanged,
            skipped=skipped,
            failed=failed,
        )

        return connector_export_completed_data
