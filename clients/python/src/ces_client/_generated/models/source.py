from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.source_kind import SourceKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="Source")


@_attrs_define
class Source:
    """
    Attributes:
        id (str): The provider's id: a container can be a link's source or an export's destination
        name (str):
        kind (SourceKind):
        size (int | Unset):
        version (str | Unset):
        content_type (str | Unset):
        updated_at (str | Unset): As the provider gave it
    """

    id: str
    name: str
    kind: SourceKind
    size: int | Unset = UNSET
    version: str | Unset = UNSET
    content_type: str | Unset = UNSET
    updated_at: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        kind = self.kind.value

        size = self.size

        version = self.version

        content_type = self.content_type

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "kind": kind,
            }
        )
        if size is not UNSET:
            field_dict["size"] = size
        if version is not UNSET:
            field_dict["version"] = version
        if content_type is not UNSET:
            field_dict["content_type"] = content_type
        if updated_at is not UNSET:
            field_dict["updated_at"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        kind = SourceKind(d.pop("kind"))

        size = d.pop("size", UNSET)

        version = d.pop("version", UNSET)

        content_type = d.pop("content_type", UNSET)

        updated_at = d.pop("updated_at", UNSET)

        source = cls(
            id=id,
            name=name,
            kind=kind,
            size=size,
            version=version,
            content_type=content_type,
            updated_at=updated_at,
        )

        return source
