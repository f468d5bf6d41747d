from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="TranscriptionJobCompletedData")


@_attrs_define
class TranscriptionJobCompletedData:
    """data of transcription.job.completed: A transcription job finished

    Attributes:
        job_id (str): Identifier of the transcription job
        vault_id (str): Identifier of the vault
        object_id (str): Identifier of the vault object
        duration_ms (int): Length of the transcribed media in milliseconds
        language (str): BCP 47 language tag detected or requested
    """

    job_id: str
    vault_id: str
    object_id: str
    duration_ms: int
    language: str

    def to_dict(self) -> dict[str, Any]:
        job_id = self.job_id

        vault_id = self.vault_id

        object_id = self.object_id

        duration_ms = self.duration_ms

        language = self.language

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "jobId": job_id,
                "vaultId": vault_id,
                "objectId": object_id,
                "durationMs": duration_ms,
                "language": language,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        job_id = d.pop("jobId")

        vault_id = d.pop("vaultId")

        object_id = d.pop("objectId")

        duration_ms = d.pop("durationMs")

        language = d.pop("language")

        transcription_job_completed_data = cls(
            job_id=job_id,
            vault_id=vault_id,
            object_id=object_id,
            duration_ms=duration_ms,
            language=language,
        )

        return transcription_job_completed_data
