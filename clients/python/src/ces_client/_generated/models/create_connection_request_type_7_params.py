from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.create_connection_request_type_7_params_region import (
    CreateConnectionRequestType7ParamsRegion,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateConnectionRequestType7Params")


@_attrs_define
class CreateConnectionRequestType7Params:
    """What the provider must know before the consent (GET /connectors/v1/providers lists each provider's params); those
    not given are asked on the connect page

        Attributes:
            region (CreateConnectionRequestType7ParamsRegion | Unset): Region: The NetDocuments data center that hosts the
                repository
    """

    region: CreateConnectionRequestType7ParamsRegion | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        region: str | Unset = UNSET
        if not isinstance(self.region, Unset):
            region = self.region.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if region is not UNSET:
            field_dict["region"] = region

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _region = d.pop("region", UNSET)
        region: CreateConnectionRequestType7ParamsRegion | Unset
        if isinstance(_region, Unset):
            region = UNSET
        else:
            region = CreateConnectionRequestType7ParamsRegion(_region)

        create_connection_request_type_7_params = cls(
            region=region,
        )

        return create_connection_request_type_7_params
