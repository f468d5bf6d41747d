from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.sync_run_failures_item_reason import SyncRunFailuresItemReason

T = TypeVar("T", bound="SyncRunFailuresItem")


@_attrs_define
class SyncRunFailuresItem:
    """
    Attributes:
        item_id (str): The provider's id of the file
        name (str):
        reason (SyncRunFailuresItemReason):
    """

    item_id: str
    name: str
    reason: SyncRunFailuresItemReason

    def to_dict(self) -> dict[str, Any]:
        item_id = self.item_id

        name = self.name

        reason = self.reason.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "item_id": item_id,
                "name": name,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        item_id = d.pop("item_id")

        name = d.pop("name")

        reason = SyncRunFailuresItemReason(d.pop("reason"))

        sync_run_failures_item = cls(
            item_id=item_id,
            name=name,
            reason=reason,
        )

        return sync_run_failures_item
