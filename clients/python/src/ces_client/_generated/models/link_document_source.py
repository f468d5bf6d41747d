from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="LinkDocumentSource")


@_attrs_define
class LinkDocumentSource:
    """
    Attributes:
        id (str): The provider's id of the file
        name (str):
        version (None | str): The provider version the document holds; null while importing
    """

    id: str
    name: str
    version: None | str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        version: None | str
        version = self.version

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        def _parse_version(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        version = _parse_version(d.pop("version"))

        link_document_source = cls(
            id=id,
            name=name,
            version=version,
        )

        return link_document_source
