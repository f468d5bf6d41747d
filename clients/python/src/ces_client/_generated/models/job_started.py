from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.job_started_status import JobStartedStatus

T = TypeVar("T", bound="JobStarted")


@_attrs_define
class JobStarted:
    """
    Attributes:
        id (str):
        status (JobStartedStatus): skipped: an import run the schedule did not start (reason says why; nothing was read
            or written)
    """

    id: str
    status: JobStartedStatus

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        status = JobStartedStatus(d.pop("status"))

        job_started = cls(
            id=id,
            status=status,
        )

        return job_started
