from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="ConnectorExportFailedData")


@_attrs_define
class ConnectorExportFailedData:
    """data of connector.export.failed: An export of vault documents to a provider failed

    Attributes:
        connection_id (str): Identifier of the connection
        provider (str): Provider identifier
        job_id (str): Identifier of the export (a connector job)
        vault_id (str): Identifier of the vault
        destination_id (str): Identifier of the provider container the documents went to
        error_code (str): Machine-readable reason
        message (str): Human-readable reason
    """

    connection_id: str
    provider: str
    job_id: str
    vault_id: str
    destination_id: str
    error_code: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        connection_id = self.connection_id

        provider = self.provider

        job_id = self.job_id

        vault_id = self.vault_id

        destination_id = self.destination_id

        error_code = self.error_code

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "connectionId": connection_id,
                "provider": provider,
                "jobId": job_id,
                "vaultId": vault_id,
                "destinationId": destination_id,
                "errorCode": error_code,
                "message": message,
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

        error_code = d.pop("errorCode")

        message = d.pop("message")

        connector_export_failed_data = cls(
            connection_id=connection_id,
            provider=provider,
            job_id=job_id,
            vault_id=vault_id,
            destination_id=destination_id,
            error_code=error_code,
            message=message,
        )

        return connector_export_failed_data
