from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="DeploymentSucceededData")


@_attrs_define
class DeploymentSucceededData:
    """data of deployment.succeeded: A deployment finished and is live

    Attributes:
        deployment_id (str): Identifier of the deployment
        project_id (str): Identifier of the application project
        environment (str):
        url (str): Address the deployment serves on
    """

    deployment_id: str
    project_id: str
    environment: str
    url: str

    def to_dict(self) -> dict[str, Any]:
        deployment_id = self.deployment_id

        project_id = self.project_id

        environment = self.environment

        url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "deploymentId": deployment_id,
                "projectId": project_id,
                "environment": environment,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        deployment_id = d.pop("deploymentId")

        project_id = d.pop("projectId")

        environment = d.pop("environment")

        url = d.pop("url")

        deployment_succeeded_data = cls(
            deployment_id=deployment_id,
            project_id=project_id,
            environment=environment,
            url=url,
        )

        return deployment_succeeded_data
