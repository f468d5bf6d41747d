from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from typing_extensions import Self

from ..models.create_portal_link_request_kind import CreatePortalLinkRequestKind
from ..models.create_portal_link_request_role import CreatePortalLinkRequestRole
from ..models.create_portal_link_request_sections_item import (
    CreatePortalLinkRequestSectionsItem,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreatePortalLinkRequest")


@_attrs_define
class CreatePortalLinkRequest:
    """
    Attributes:
        role (CreatePortalLinkRequestRole): portal: read-only or manage; console: owner, admin or member
        kind (CreatePortalLinkRequestKind | Unset): portal (default): the embeddable portal for a customer's own users;
            console: the full console, for a deployment's operators (system key only)
        organization_id (str | Unset): The organization; a customer key's own by default, required with a system key
        application_id (str | Unset):
        sections (list[CreatePortalLinkRequestSectionsItem] | Unset): The portal sections shown (default both)
        user (str | Unset): Who the user is in your product: shown in the header and the session list
        link_ttl_seconds (int | Unset): How long the link can be opened (default 900)
        session_ttl_seconds (int | Unset): How long the session lasts once opened (default and most 28800)
    """

    role: CreatePortalLinkRequestRole
    kind: CreatePortalLinkRequestKind | Unset = UNSET
    organization_id: str | Unset = UNSET
    application_id: str | Unset = UNSET
    sections: list[CreatePortalLinkRequestSectionsItem] | Unset = UNSET
    user: str | Unset = UNSET
    link_ttl_seconds: int | Unset = UNSET
    session_ttl_seconds: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        role = self.role.value

        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind.value

        organization_id = self.organization_id

        application_id = self.application_id

        sections: list[str] | Unset = UNSET
        if not isinstance(self.sections, Unset):
            sections = []
            for sections_item_data in self.sections:
                sections_item = sections_item_data.value
                sections.append(sections_item)

        user = self.user

        link_ttl_seconds = self.link_ttl_seconds

        session_ttl_seconds = self.session_ttl_seconds

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "role": role,
            }
        )
        if kind is not UNSET:
            field_dict["kind"] = kind
        if organization_id is not UNSET:
            field_dict["organization_id"] = organization_id
        if application_id is not UNSET:
            field_dict["application_id"] = application_id
        if sections is not UNSET:
            field_dict["sections"] = sections
        if user is not UNSET:
            field_dict["user"] = user
        if link_ttl_seconds is not UNSET:
            field_dict["link_ttl_seconds"] = link_ttl_seconds
        if session_ttl_seconds is not UNSET:
            field_dict["session_ttl_seconds"] = session_ttl_seconds

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        role = CreatePortalLinkRequestRole(d.pop("role"))

        _kind = d.pop("kind", UNSET)
        kind: CreatePortalLinkRequestKind | Unset
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = CreatePortalLinkRequestKind(_kind)

        organization_id = d.pop("organization_id", UNSET)

        application_id = d.pop("application_id", UNSET)

        _sections = d.pop("sections", UNSET)
        sections: list[CreatePortalLinkRequestSectionsItem] | Unset = UNSET
        if _sections is not UNSET:
            sections = []
            for sections_item_data in _sections:
                sections_item = CreatePortalLinkRequestSectionsItem(sections_item_data)

                sections.append(sections_item)

        user = d.pop("user", UNSET)

        link_ttl_seconds = d.pop("link_ttl_seconds", UNSET)

        session_ttl_seconds = d.pop("session_ttl_seconds", UNSET)

        create_portal_link_request = cls(
            role=role,
            kind=kind,
            organization_id=organization_id,
            application_id=application_id,
            sections=sections,
            user=user,
            link_ttl_seconds=link_ttl_seconds,
            session_ttl_seconds=session_ttl_seconds,
        )

        create_portal_link_request.additional_properties = d
        return create_portal_link_request

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
