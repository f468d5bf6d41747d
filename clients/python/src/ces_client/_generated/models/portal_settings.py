from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.portal_settings_appearance import PortalSettingsAppearance

T = TypeVar("T", bound="PortalSettings")


@_attrs_define
class PortalSettings:
    """
    Attributes:
        frame_ancestors (list[str]): Origins that may frame the portal; none by default
        brand_color (None | str):
        logo_url (None | str):
        appearance (PortalSettingsAppearance):
    """

    frame_ancestors: list[str]
    brand_color: None | str
    logo_url: None | str
    appearance: PortalSettingsAppearance

    def to_dict(self) -> dict[str, Any]:
        frame_ancestors = self.frame_ancestors

        brand_color: None | str
        brand_color = self.brand_color

        logo_url: None | str
        logo_url = self.logo_url

        appearance = self.appearance.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "frame_ancestors": frame_ancestors,
                "brand_color": brand_color,
                "logo_url": logo_url,
                "appearance": appearance,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        frame_ancestors = cast(list[str], d.pop("frame_ancestors"))

        def _parse_brand_color(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        brand_color = _parse_brand_color(d.pop("brand_color"))

        def _parse_logo_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        logo_url = _parse_logo_url(d.pop("logo_url"))

        appearance = PortalSettingsAppearance(d.pop("appearance"))

        portal_settings = cls(
            frame_ancestors=frame_ancestors,
            brand_color=brand_color,
            logo_url=logo_url,
            appearance=appearance,
        )

        return portal_settings
