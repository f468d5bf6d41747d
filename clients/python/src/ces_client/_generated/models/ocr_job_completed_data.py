from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="OcrJobCompletedData")


@_attrs_define
class OcrJobCompletedData:
    """data of ocr.job.completed: An OCR job finished

    Attributes:
        job_id (str): Identifier of the OCR job
        vault_id (str): Identifier of the vault
        object_id (str): Identifier of the vault object
        page_count (int):
    """

    job_id: str
    vault_id: str
    object_id: str
    page_count: int

    def to_dict(self) -> dict[str, Any]:
        job_id = self.job_id

        vault_id = self.vault_id

        object_id = self.object_id

        page_count = self.page_count

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "jobId": job_id,
                "vaultId": vault_id,
                "objectId": object_id,
                "pageCount": page_count,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        job_id = d.pop("jobId")

        vault_id = d.pop("vaultId")

        object_id = d.pop("objectId")

        page_count = d.pop("pageCount")

        ocr_job_completed_data = cls(
            job_id=job_id,
            vault_id=vault_id,
            object_id=object_id,
            page_count=page_count,
        )

        return ocr_job_completed_data
