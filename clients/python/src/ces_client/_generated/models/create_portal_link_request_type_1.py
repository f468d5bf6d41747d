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

from ..models.create_portal_link_request_type_1_role import (
    CreatePortalLinkRequestType1Role,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreatePortalLinkRequestType1")


@_attrs_define
class CreatePortalLinkRequestType1:
    """
    Attributes:
        kind (Literal['console']): The full console, for a deployment's operators (system key only)
        role (CreatePortalLinkRequestType1Role):
        organization_id (str | Unset): The organization; a customer key's own by default, required with a system key
        user (str | Unset): Who the user is in your product: shown in the header and the session list
        link_ttl_seconds (int | Unset): How long the link can be opened (default 900)
        session_ttl_seconds (int | Unset): How long the session lasts once opened (default and most 28800)
    """

    kind: Literal["console"]
    role: CreatePortalLinkRequestType1Role
    organization_id: str | Unset = UNSET
    user: str | Unset = UNSET
    link_ttl_seconds: int | Unset = UNSET
    session_ttl_seconds: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        role = self.role.value

        organization_id = self.organization_id

        user = self.user

        link_ttl_seconds = self.link_ttl_seconds

        session_ttl_seconds = self.session_ttl_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "role": role,
            }
        )
        if organization_id is not UNSET:
            field_dict["organization_id"] = organization_id
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
        kind = cast(Literal["console"], d.pop("kind"))
        if kind != "console":
            raise ValueError(f"kind must match const 'console', got '{kind}'")

        role = CreatePortalLinkRequestType1Role(d.pop("role"))

        organization_id = d.pop("organization_id", UNSET)

        user = d.pop("user", UNSET)

        link_ttl_seconds = d.pop("link_ttl_seconds", UNSET)

        session_ttl_seconds = d.pop("session_ttl_seconds", UNSET)

        create_portal_link_request_type_1 = cls(
            kind=kind,
            role=role,
            organization_id=organization_id,
            user=user,
            link_ttl_seconds=link_ttl_seconds,
            session_ttl_seconds=session_ttl_seconds,
        )

        return create_portal_link_request_type_1
