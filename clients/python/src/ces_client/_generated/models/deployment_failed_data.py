from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="DeploymentFailedData")


@_attrs_define
class DeploymentFailedData:
    """data of deployment.failed: A deployment failed

    Attributes:
        deployment_id (str): Identifier of the deployment
        project_id (str): Identifier of the application project
        environment (str):
        error_code (str): Machine-readable reason
        message (str): Human-readable reason
    """

    deployment_id: str
    project_id: str
    environment: str
    error_code: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        deployment_id = self.deployment_id

        project_id = self.project_id

        environment = self.environment

        error_code = self.error_code

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "deploymentId": deployment_id,
                "projectId": project_id,
                "environment": environment,
                "errorCode": error_code,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        deployment_id = d.pop("deploymentId")

        project_id = d.pop("projectId")

        environment = d.pop("environment")

        error_code = d.pop("errorCode")

        message = d.pop("message")

        deployment_failed_data = cls(
            deployment_id=deployment_id,
            project_id=project_id,
            environment=environment,
            error_code=error_code,
            message=message,
        )

        return deployment_failed_data
