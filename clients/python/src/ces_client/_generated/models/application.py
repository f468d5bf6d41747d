from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="Application")


@_attrs_define
class Application:
    """
    Attributes:
        id (str):
        name (str):
        created_at (datetime.datetime):
        api_key_ids (list[str]): The keys bound to the application
    """

    id: str
    name: str
    created_at: datetime.datetime
    api_key_ids: list[str]

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        created_at = self.created_at.isoformat()

        api_key_ids = self.api_key_ids

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "created_at": created_at,
                "api_key_ids": api_key_ids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        api_key_ids = cast(list[str], d.pop("api_key_ids"))

        application = cls(
            id=id,
            name=name,
            created_at=created_at,
            api_key_ids=api_key_ids,
        )

        return application
