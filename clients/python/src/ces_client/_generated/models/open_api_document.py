from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.open_api_document_components import OpenApiDocumentComponents
    from ..models.open_api_document_info import OpenApiDocumentInfo
    from ..models.open_api_document_paths import OpenApiDocumentPaths
    from ..models.open_api_document_servers_item import OpenApiDocumentServersItem
    from ..models.open_api_document_tags_item import OpenApiDocumentTagsItem


T = TypeVar("T", bound="OpenApiDocument")


@_attrs_define
class OpenApiDocument:
    """An OpenAPI 3.1 document

    Attributes:
        openapi (Literal['3.1.0']):
        info (OpenApiDocumentInfo):
        servers (list[OpenApiDocumentServersItem]):
        tags (list[OpenApiDocumentTagsItem]):
        paths (OpenApiDocumentPaths):
        components (OpenApiDocumentComponents):
    """

    openapi: Literal["3.1.0"]
    info: OpenApiDocumentInfo
    servers: list[OpenApiDocumentServersItem]
    tags: list[OpenApiDocumentTagsItem]
    paths: OpenApiDocumentPaths
    components: OpenApiDocumentComponents

    def to_dict(self) -> dict[str, Any]:
        openapi = self.openapi

        info = self.info.to_dict()

        servers = []
        for servers_item_data in self.servers:
            servers_item = servers_item_data.to_dict()
            servers.append(servers_item)

        tags = []
        for tags_item_data in self.tags:
            tags_item = tags_item_data.to_dict()
            tags.append(tags_item)

        paths = self.paths.to_dict()

        components = self.components.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "openapi": openapi,
                "info": info,
                "servers": servers,
                "tags": tags,
                "paths": paths,
                "components": components,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.open_api_document_components import OpenApiDocumentComponents
        from ..models.open_api_document_info import OpenApiDocumentInfo
        from ..models.open_api_document_paths import OpenApiDocumentPaths
        from ..models.open_api_document_servers_item import OpenApiDocumentServersItem
        from ..models.open_api_document_tags_item import OpenApiDocumentTagsItem

        d = dict(src_dict)
        openapi = cast(Literal["3.1.0"], d.pop("openapi"))
        if openapi != "3.1.0":
            raise ValueError(f"openapi must match const '3.1.0', got '{openapi}'")

        info = OpenApiDocumentInfo.from_dict(d.pop("info"))

        servers = []
        _servers = d.pop("servers")
        for servers_item_data in _servers:
            servers_item = OpenApiDocumentServersItem.from_dict(servers_item_data)

            servers.append(servers_item)

        tags = []
        _tags = d.pop("tags")
        for tags_item_data in _tags:
            tags_item = OpenApiDocumentTagsItem.from_dict(tags_item_data)

            tags.append(tags_item)

        paths = OpenApiDocumentPaths.from_dict(d.pop("paths"))

        components = OpenApiDocumentComponents.from_dict(d.pop("components"))

        open_api_document = cls(
            openapi=openapi,
            info=info,
            servers=servers,
            tags=tags,
            paths=paths,
            components=components,
        )

        return open_api_document
