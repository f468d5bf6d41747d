from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.create_portal_link_request_type_0_role import (
    CreatePortalLinkRequestType0Role,
)
from ..models.create_portal_link_request_type_0_sections_item import (
    CreatePortalLinkRequestType0SectionsItem,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreatePortalLinkRequestType0")


@_attrs_define
class CreatePortalLinkRequestType0:
    """
    Attributes:
        role (CreatePortalLinkRequestType0Role):
        kind (Literal['portal'] | Unset): The embeddable portal for a customer's own users (default)
        organization_id (str | Unset): The organization; a customer key's own by default, required with a system key
        user (str | Unset): Who the user is in your product: shown in the header and the session list
        link_ttl_seconds (int | Unset): How long the link can be opened (default 900)
        session_ttl_seconds (int | Unset): How long the session lasts once opened (default and most 28800)
        application_id (str | Unset):
        sections (list[CreatePortalLinkRequestType0SectionsItem] | Unset): The portal sections shown (default both)
    """

    role: CreatePortalLinkRequestType0Role
    kind: Literal["portal"] | Unset = UNSET
    organization_id: str | Unset = UNSET
    user: str | Unset = UNSET
    link_ttl_seconds: int | Unset = UNSET
    session_ttl_seconds: int | Unset = UNSET
    application_id: str | Unset = UNSET
    sections: list[CreatePortalLinkRequestType0SectionsItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        role = self.role.value

        kind = self.kind

        organization_id = self.organization_id

        user = self.user

        link_ttl_seconds = self.link_ttl_seconds

        session_ttl_seconds = self.session_ttl_seconds

        application_id = self.application_id

        sections: list[str] | Unset = UNSET
        if not isinstance(self.sections, Unset):
            sections = []
            for sections_item_data in self.sections:
                sections_item = sections_item_data.value
                sections.append(sections_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "role": role,
            }
        )
        if kind is not UNSET:
            field_dict["kind"] = kind
        if organization_id is not UNSET:
            field_dict["organization_id"] = organization_id
        if user is not UNSET:
            field_dict["user"] = user
        if link_ttl_seconds is not UNSET:
            field_dict["link_ttl_seconds"] = link_ttl_seconds
        if session_ttl_seconds is not UNSET:
            field_dict["session_ttl_seconds"] = session_ttl_seconds
        if application_id is not UNSET:
            field_dict["application_id"] = application_id
        if sections is not UNSET:
            field_dict["sections"] = sections

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        role = CreatePortalLinkRequestType0Role(d.pop("role"))

        kind = cast(Literal["portal"] | Unset, d.pop("kind", UNSET))
        if kind != "portal" and not isinstance(kind, Unset):
            raise ValueError(f"kind must match const 'portal', got '{kind}'")

        organization_id = d.pop("organization_id", UNSET)

        user = d.pop("user", UNSET)

        link_ttl_seconds = d.pop("link_ttl_seconds", UNSET)

        session_ttl_seconds = d.pop("session_ttl_seconds", UNSET)

        application_id = d.pop("application_id", UNSET)

        _sections = d.pop("sections", UNSET)
        sections: list[CreatePortalLinkRequestType0SectionsItem] | Unset = UNSET
        if _sections is not UNSET:
            sections = []
            for sections_item_data in _sections:
                sections_item = CreatePortalLinkRequestType0SectionsItem(
                    sections_item_data
                )

                sections.append(sections_item)

        create_portal_link_request_type_0 = cls(
            role=role,
            kind=kind,
            organization_id=organization_id,
            user=user,
            link_ttl_seconds=link_ttl_seconds,
            session_ttl_seconds=session_ttl_seconds,
            application_id=application_id,
            sections=sections,
        )

        return create_portal_link_request_type_0
