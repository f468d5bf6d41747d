from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.api_key_summary_permissions_item import ApiKeySummaryPermissionsItem

T = TypeVar("T", bound="ApiKeySummary")


@_attrs_define
class ApiKeySummary:
    """
    Attributes:
        id (str):
        name (str):
        permissions (list[ApiKeySummaryPermissionsItem]):
        system (bool):
        revoked (bool):
        application_id (None | str): The application it is bound to, if any
    """

    id: str
    name: str
    permissions: list[ApiKeySummaryPermissionsItem]
    system: bool
    revoked: bool
    application_id: None | str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        permissions = []
        for permissions_item_data in self.permissions:
            permissions_item = permissions_item_data.value
            permissions.append(permissions_item)

        system = self.system

        revoked = self.revoked

        application_id: None | str
        application_id = self.application_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "permissions": permissions,
                "system": system,
                "revoked": revoked,
                "application_id": application_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        permissions = []
        _permissions = d.pop("permissions")
        for permissions_item_data in _permissions:
            permissions_item = ApiKeySummaryPermissionsItem(permissions_item_data)

            permissions.append(permissions_item)

        system = d.pop("system")

        revoked = d.pop("revoked")

        def _parse_application_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        application_id = _parse_application_id(d.pop("application_id"))

        api_key_summary = cls(
            id=id,
            name=name,
            permissions=permissions,
            system=system,
            revoked=revoked,
            application_id=application_id,
        )

        return api_key_summary
