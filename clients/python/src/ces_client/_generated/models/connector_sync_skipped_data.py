from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="ConnectorSyncSkippedData")


@_attrs_define
class ConnectorSyncSkippedData:
    """data of connector.sync.skipped: A scheduled import run did not start (errorCode says why: the provider turned off,
    the connection needing the user, the previous run still going); the link's runs list shows it as skipped

        Attributes:
            connection_id (str): Identifier of the connection
            provider (str): Provider identifier
            link_id (str): Identifier of the import link
            job_id (str): Identifier of the run (a connector job)
            vault_id (str): Identifier of the vault
            error_code (str): Machine-readable reason
            message (str): Human-readable reason
    """

    connection_id: str
    provider: str
    link_id: str
    job_id: str
    vault_id: str
    error_code: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        connection_id = self.connection_id

        provider = self.provider

        link_id = self.link_id

        job_id = self.job_id

        vault_id = self.vault_id

        error_code = self.error_code

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "connectionId": connection_id,
                "provider": provider,
                "linkId": link_id,
                "jobId": job_id,
                "vaultId": vault_id,
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

        link_id = d.pop("linkId")

        job_id = d.pop("jobId")

        vault_id = d.pop("vaultId")

        error_code = d.pop("errorCode")

        message = d.pop("message")

        connector_sync_skipped_data = cls(
            connection_id=connection_id,
            provider=provider,
            link_id=link_id,
            job_id=job_id,
            vault_id=vault_id,
            error_code=error_code,
            message=message,
        )

        return connector_sync_skipped_data
