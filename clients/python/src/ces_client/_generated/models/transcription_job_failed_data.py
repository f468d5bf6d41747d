from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="TranscriptionJobFailedData")


@_attrs_define
class TranscriptionJobFailedData:
    """data of transcription.job.failed: A transcription job failed

    Attributes:
        job_id (str): Identifier of the transcription job
        vault_id (str): Identifier of the vault
        object_id (str): Identifier of the vault object
        error_code (str): Machine-readable reason
        message (str): Human-readable reason
    """

    job_id: str
    vault_id: str
    object_id: str
    error_code: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        job_id = self.job_id

        vault_id = self.vault_id

        object_id = self.object_id

        error_code = self.error_code

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "jobId": job_id,
                "vaultId": vault_id,
                "objectId": object_id,
                "errorCode": error_code,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        job_id = d.pop("jobId")

        vault_id = d.pop("vaultId")

        object_id = d.pop("objectId")

        error_code = d.pop("errorCode")

        message = d.pop("message")

        transcription_job_failed_data = cls(
            job_id=job_id,
            vault_id=vault_id,
            object_id=object_id,
            error_code=error_code,
            message=message,
        )

        return transcription_job_failed_data
