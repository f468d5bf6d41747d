from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="OpenApiDocumentInfo")


@_attrs_define
class OpenApiDocumentInfo:
    """
    Attributes:
        title (str):
        version (str):
        description (str):
    """

    title: str
    version: str
    description: str

    def to_dict(self) -> dict[str, Any]:
        title = self.title

        version = self.version

        description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "title": title,
                "version": version,
                "description": description,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        title = d.pop("title")

        version = d.pop("version")

        description = d.pop("description")

        open_api_document_info = cls(
            title=title,
            version=version,
            description=description,
        )

        return open_api_document_info
