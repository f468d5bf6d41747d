from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.deployment_failed_data import DeploymentFailedData


T = TypeVar("T", bound="PublishWebhookEventRequestType11")


@_attrs_define
class PublishWebhookEventRequestType11:
    """
    Attributes:
        organization_id (str):
        type_ (Literal['deployment.failed']):
        data (DeploymentFailedData): data of deployment.failed: A deployment failed
    """

    organization_id: str
    type_: Literal["deployment.failed"]
    data: DeploymentFailedData

    def to_dict(self) -> dict[str, Any]:
        organization_id = self.organization_id

        type_ = self.type_

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "organizationId": organization_id,
                "type": type_,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.deployment_failed_data import DeploymentFailedData

        d = dict(src_dict)
        organization_id = d.pop("organizationId")

        type_ = cast(Literal["deployment.failed"], d.pop("type"))
        if type_ != "deployment.failed":
            raise ValueError(
                f"type must match const 'deployment.failed', got '{type_}'"
            )

        data = DeploymentFailedData.from_dict(d.pop("data"))

        publish_webhook_event_request_type_11 = cls(
            organization_id=organization_id,
            type_=type_,
            data=data,
        )

        return publish_webhook_event_request_type_11
