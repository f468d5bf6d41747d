from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.portal_session_kind import PortalSessionKind
from ..models.portal_session_role import PortalSessionRole
from ..models.portal_session_sections_item import PortalSessionSectionsItem

T = TypeVar("T", bound="PortalSession")


@_attrs_define
class PortalSession:
    """
    Attributes:
        id (str):
        kind (PortalSessionKind):
        organization_id (str):
        application_id (None | str):
        role (PortalSessionRole):
        sections (list[PortalSessionSectionsItem]):
        user (None | str):
        created_at (datetime.datetime):
        expires_at (datetime.datetime):
    """

    id: str
    kind: PortalSessionKind
    organization_id: str
    application_id: None | str
    role: PortalSessionRole
    sections: list[PortalSessionSectionsItem]
    user: None | str
    created_at: datetime.datetime
    expires_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        kind = self.kind.value

        organization_id = self.organization_id

        application_id: None | str
        application_id = self.application_id

        role = self.role.value

        sections = []
        for sections_item_data in self.sections:
            sections_item = sections_item_data.value
            sections.append(sections_item)

        user: None | str
        user = self.user

        created_at = self.created_at.isoformat()

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "kind": kind,
                "organization_id": organization_id,
                "application_id": application_id,
                "role": role,
                "sections": sections,
                "user": user,
                "created_at": created_at,
                "expires_at": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        kind = PortalSessionKind(d.pop("kind"))

        organization_id = d.pop("organization_id")

        def _parse_application_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        application_id = _parse_application_id(d.pop("application_id"))

        role = PortalSessionRole(d.pop("role"))

        sections = []
        _sections = d.pop("sections")
        for sections_item_data in _sections:
            sections_item = PortalSessionSectionsItem(sections_item_data)

            sections.append(sections_item)

        def _parse_user(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        user = _parse_user(d.pop("user"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        portal_session = cls(
            id=id,
            kind=kind,
            organization_id=organization_id,
            application_id=application_id,
            role=role,
            sections=sections,
            user=user,
            created_at=created_at,
            expires_at=expires_at,
        )

        return portal_session
