from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="ConnectorLinkSourceMissingData")


@_attrs_define
class ConnectorLinkSourceMissingData:
    """data of connector.link.source_missing: An import link's container is gone at the provider (deleted, moved out of
    reach, access revoked): the link is source_missing and its documents no longer show as live

        Attributes:
            connection_id (str): Identifier of the connection
            provider (str): Provider identifier
            link_id (str): Identifier of the import link
            job_id (str): Identifier of the run (a connector job)
            vault_id (str): Identifier of the vault
            source_id (str): The provider's id of the linked container
    """

    connection_id: str
    provider: str
    link_id: str
    job_id: str
    vault_id: str
    source_id: str

    def to_dict(self) -> dict[str, Any]:
        connection_id = self.connection_id

        provider = self.provider

        link_id = self.link_id

        job_id = self.job_id

        vault_id = self.vault_id

        source_id = self.source_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "connectionId": connection_id,
                "provider": provider,
                "linkId": link_id,
                "jobId": job_id,
                "vaultId": vault_id,
                "sourceId": source_id,
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

        source_id = d.pop("sourceId")

        connector_link_source_missing_data = cls(
            connection_id=connection_id,
            provider=provider,
            link_id=link_id,
            job_id=job_id,
            vault_id=vault_id,
            source_id=source_id,
        )

        return connector_link_source_missing_data
