from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.create_export_request_conflict import CreateExportRequestConflict
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_export_request_destination import (
        CreateExportRequestDestination,
    )


T = TypeVar("T", bound="CreateExportRequest")


@_attrs_define
class CreateExportRequest:
    """
    Attributes:
        vault_id (str):
        document_ids (list[str]):
        destination (CreateExportRequestDestination):
        conflict (CreateExportRequestConflict | Unset): A name already taken at the destination: rename (default; "name
            (2).ext"), skip, fail, or replace (only a file this service exported; any other is refused per document)
    """

    vault_id: str
    document_ids: list[str]
    destination: CreateExportRequestDestination
    conflict: CreateExportRequestConflict | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        vault_id = self.vault_id

        document_ids = self.document_ids

        destination = self.destination.to_dict()

        conflict: str | Unset = UNSET
        if not isinstance(self.conflict, Unset):
            conflict = self.conflict.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "vault_id": vault_id,
                "document_ids": document_ids,
                "destination": destination,
            }
        )
        if conflict is not UNSET:
            field_dict["conflict"] = conflict

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.create_export_request_destination import (
            CreateExportRequestDestination,
        )

        d = dict(src_dict)
        vault_id = d.pop("vault_id")

        document_ids = cast(list[str], d.pop("document_ids"))

        destination = CreateExportRequestDestination.from_dict(d.pop("destination"))

        _conflict = d.pop("conflict", UNSET)
        conflict: CreateExportRequestConflict | Unset
        if isinstance(_conflict, Unset):
            conflict = UNSET
        else:
            conflict = CreateExportRequestConflict(_conflict)

        create_export_request = cls(
            vault_id=vault_id,
            document_ids=document_ids,
            destination=destination,
            conflict=conflict,
        )

        return create_export_request
