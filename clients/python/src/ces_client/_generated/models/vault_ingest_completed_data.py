from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="VaultIngestCompletedData")


@_attrs_define
class VaultIngestCompletedData:
    """data of vault.ingest.completed: Ingestion of a vault object finished

    Attributes:
        vault_id (str): Identifier of the vault
        object_id (str): Identifier of the vault object
        duration_ms (int): Ingestion time in milliseconds
        chunk_count (int): Chunks the object was split into
    """

    vault_id: str
    object_id: str
    duration_ms: int
    chunk_count: int

    def to_dict(self) -> dict[str, Any]:
        vault_id = self.vault_id

        object_id = self.object_id

        duration_ms = self.duration_ms

        chunk_count = self.chunk_count

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "vaultId": vault_id,
                "objectId": object_id,
                "durationMs": duration_ms,
                "chunkCount": chunk_count,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        vault_id = d.pop("vaultId")

        object_id = d.pop("objectId")

        duration_ms = d.pop("durationMs")

        chunk_count = d.pop("chunkCount")

        vault_ingest_completed_data = cls(
            vault_id=vault_id,
            object_id=object_id,
            duration_ms=duration_ms,
            chunk_count=chunk_count,
        )

        return vault_ingest_completed_data
