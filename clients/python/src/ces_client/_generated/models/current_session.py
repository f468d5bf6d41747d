from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.current_session_kind import CurrentSessionKind
from ..models.current_session_role import CurrentSessionRole
from ..models.current_session_sections_item import CurrentSessionSectionsItem

if TYPE_CHECKING:
    from ..models.current_session_theme import CurrentSessionTheme


T = TypeVar("T", bound="CurrentSession")


@_attrs_define
class CurrentSession:
    """
    Attributes:
        kind (CurrentSessionKind):
        role (CurrentSessionRole):
        organization_id (str):
        organization_name (None | str):
        user_id (str):
        expires_at (datetime.datetime):
        sections (list[CurrentSessionSectionsItem]):
        home (str):
        theme (CurrentSessionTheme):
    """

    kind: CurrentSessionKind
    role: CurrentSessionRole
    organization_id: str
    organization_name: None | str
    user_id: str
    expires_at: datetime.datetime
    sections: list[CurrentSessionSectionsItem]
    home: str
    theme: CurrentSessionTheme

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        role = self.role.value

        organization_id = self.organization_id

        organization_name: None | str
        organization_name = self.organization_name

        user_id = self.user_id

        expires_at = self.expires_at.isoformat()

        sections = []
        for sections_item_data in self.sections:
            sections_item = sections_item_data.value
            sections.append(sections_item)

        home = self.home

        theme = self.theme.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "role": role,
                "organizationId": organization_id,
                "organizationName": organization_name,
                "userId": user_id,
                "expiresAt": expires_at,
                "sections": sections,
                "home": home,
                "theme": theme,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.current_session_theme import CurrentSessionTheme

        d = dict(src_dict)
        kind = CurrentSessionKind(d.pop("kind"))

        role = CurrentSessionRole(d.pop("role"))

        organization_id = d.pop("organizationId")

        def _parse_organization_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        organization_name = _parse_organization_name(d.pop("organizationName"))

        user_id = d.pop("userId")

        expires_at = datetime.datetime.fromisoformat(d.pop("expiresAt"))

        sections = []
        _sections = d.pop("sections")
        for sections_item_data in _sections:
            sections_item = CurrentSessionSectionsItem(sections_item_data)

            sections.append(sections_item)

        home = d.pop("home")

        theme = CurrentSessionTheme.from_dict(d.pop("theme"))

        current_session = cls(
            kind=kind,
            role=role,
            organization_id=organization_id,
            organization_name=organization_name,
            user_id=user_id,
            expires_at=expires_at,
            sections=sections,
            home=home,
            theme=theme,
        )

        return current_session
