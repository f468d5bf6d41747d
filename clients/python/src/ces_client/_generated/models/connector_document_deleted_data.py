from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="ConnectorDocumentDeletedData")


@_attrs_define
class ConnectorDocumentDeletedData:
    """data of connector.document.deleted: A file an import link brought in was deleted at the provider: its document is
    marked (and removed from the vault when the link's policy says so)

        Attributes:
            connection_id (str): Identifier of the connection
            provider (str): Provider identifier
            link_id (str): Identifier of the import link
            job_id (str): Identifier of the run (a connector job)
            vault_id (str): Identifier of the vault
            object_id (str): Identifier of the vault document the file had become
            source_id (str): Identifier of the provider's file
            name (str): The file name when last seen
            removed_from_vault (bool): Whether the document was removed from the vault (the link's on_source_delete policy)
    """

    connection_id: str
    provider: str
    link_id: str
    job_id: str
    vault_id: str
    object_id: str
    source_id: str
    name: str
    removed_from_vault: bool

    def to_dict(self) -> dict[str, Any]:
        connection_id = self.connection_id

        provider = self.provider

        link_id = self.link_id

        job_id = self.job_id

        vault_id = self.vault_id

        object_id = self.object_id

        source_id = self.source_id

        name = self.name

        removed_from_vault = self.removed_from_vault

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "connectionId": connection_id,
                "provider": provider,
                "linkId": link_id,
                "jobId": job_id,
                "vaultId": vault_id,
                "objectId": object_id,
                "sourceId": source_id,
                "name": name,
                "removedFromVault": removed_from_vault,
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

        object_id = d.pop("objectId")

        source_id = d.pop("sourceId")

        name = d.pop("name")

        removed_from_vault = d.pop("removedFromVault")

        connector_document_deleted_data = cls(
            connection_id=connection_id,
            provider=provider,
            link_id=link_id,
            job_id=job_id,
            vault_id=vault_id,
            object_id=object_id,
            source_id=source_id,
            name=name,
            removed_from_vault=removed_from_vault,
        )

        return connector_document_deleted_data
