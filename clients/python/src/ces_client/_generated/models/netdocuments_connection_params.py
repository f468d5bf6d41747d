from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.netdocuments_connection_params_region import (
    NetdocumentsConnectionParamsRegion,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="NetdocumentsConnectionParams")


@_attrs_define
class NetdocumentsConnectionParams:
    """
    Attributes:
        region (NetdocumentsConnectionParamsRegion | Unset): Region: The NetDocuments data center that hosts the
            repository
    """

    region: NetdocumentsConnectionParamsRegion | Unset = UNSET

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
        region: NetdocumentsConnectionParamsRegion | Unset
        if isinstance(_region, Unset):
            region = UNSET
        else:
            region = NetdocumentsConnectionParamsRegion(_region)

        netdocuments_connection_params = cls(
            region=region,
        )

        return netdocuments_connection_params
