from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="PurgeJobCounts")


@_attrs_define
class PurgeJobCounts:
    """
    Attributes:
        deleted (int): Imported documents deleted so far
        pages (int): Pages of the ledger done so far
    """

    deleted: int
    pages: int

    def to_dict(self) -> dict[str, Any]:
        deleted = self.deleted

        pages = self.pages

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "deleted": deleted,
                "pages": pages,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        deleted = d.pop("deleted")

        pages = d.pop("pages")

        purge_job_counts = cls(
            deleted=deleted,
            pages=pages,
        )

        return purge_job_counts
