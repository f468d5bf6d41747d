from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.link_document_status import LinkDocumentStatus

if TYPE_CHECKING:
    from ..models.link_document_source import LinkDocumentSource


T = TypeVar("T", bound="LinkDocument")


@_attrs_define
class LinkDocument:
    """
    Attributes:
        document_id (str): The vault document the provider file became
        vault_id (str): The vault's id (the vault area's)
        source (LinkDocumentSource):
        vault_version (int | None):
        status (LinkDocumentStatus): deleted_at_source: the file is gone at the provider and the document kept;
            removed_from_vault: gone, and the link policy removed the document; source_missing: the link's container is gone
            at the provider (the document is kept, and shown live again once a run finds the container)
        imported_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    document_id: str
    vault_id: str
    source: LinkDocumentSource
    vault_version: int | None
    status: LinkDocumentStatus
    imported_at: datetime.datetime
    updated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        document_id = self.document_id

        vault_id = self.vault_id

        source = self.source.to_dict()

        vault_version: int | None
        vault_version = self.vault_version

        status = self.status.value

        imported_at = self.imported_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "document_id": document_id,
                "vault_id": vault_id,
                "source": source,
                "vault_version": vault_version,
                "status": status,
                "imported_at": imported_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.link_document_source import LinkDocumentSource

        d = dict(src_dict)
        document_id = d.pop("document_id")

        vault_id = d.pop("vault_id")

        source = LinkDocumentSource.from_dict(d.pop("source"))

        def _parse_vault_version(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        vault_version = _parse_vault_version(d.pop("vault_version"))

        status = LinkDocumentStatus(d.pop("status"))

        imported_at = datetime.datetime.fromisoformat(d.pop("imported_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        link_document = cls(
            document_id=document_id,
            vault_id=vault_id,
            source=source,
            vault_version=vault_version,
            status=status,
            imported_at=imported_at,
            updated_at=updated_at,
        )

        return link_document
