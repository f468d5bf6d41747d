from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="SyncCounts")


@_attrs_define
class SyncCounts:
    """
    Attributes:
        listed (int): Provider files the run listed (new, changed, unchanged or deleted since the last pass)
        imported (int): Files imported as new vault documents
        updated (int): Vault documents given a changed file as their next version
        unchanged (int): Files already imported at their version
        failed (int): Files that could not be imported (listed in failures)
        deleted (int): Files deleted at the provider whose documents this run marked deleted (and removed, by the link
            policy)
    """

    listed: int
    imported: int
    updated: int
    unchanged: int
    failed: int
    deleted: int

    def to_dict(self) -> dict[str, Any]:
        listed = self.listed

        imported = self.imported

        updated = self.updated

        unchanged = self.unchanged

        failed = self.failed

        deleted = self.deleted

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "listed": listed,
                "imported": imported,
                "updated": updated,
                "unchanged": unchanged,
                "failed": failed,
                "deleted": deleted,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        listed = d.pop("listed")

        imported = d.pop("imported")

        updated = d.pop("updated")

        unchanged = d.pop("unchanged")

        failed = d.pop("failed")

        deleted = d.pop("deleted")

        sync_counts = cls(
            listed=listed,
            imported=imported,
            updated=updated,
            unchanged=unchanged,
            failed=failed,
            deleted=deleted,
        )

        return sync_counts
