from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.start_sync_run_request_mode import StartSyncRunRequestMode
from ..types import UNSET, Unset

T = TypeVar("T", bound="StartSyncRunRequest")


@_attrs_define
class StartSyncRunRequest:
    """
    Attributes:
        mode (StartSyncRunRequestMode | Unset): changes (default): what changed since the link's last pass; full: a
            reconcile, every file of the source again, and the link's documents the source no longer holds (deleted, moved
            out) marked deleted, without new document ids
    """

    mode: StartSyncRunRequestMode | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if mode is not UNSET:
            field_dict["mode"] = mode

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _mode = d.pop("mode", UNSET)
        mode: StartSyncRunRequestMode | Unset
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = StartSyncRunRequestMode(_mode)

        start_sync_run_request = cls(
            mode=mode,
        )

        return start_sync_run_request
