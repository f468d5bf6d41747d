from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.current_session_theme_appearance import CurrentSessionThemeAppearance

T = TypeVar("T", bound="CurrentSessionTheme")


@_attrs_define
class CurrentSessionTheme:
    """
    Attributes:
        brand_color (None | str):
        logo_url (None | str):
        appearance (CurrentSessionThemeAppearance):
    """

    brand_color: None | str
    logo_url: None | str
    appearance: CurrentSessionThemeAppearance

    def to_dict(self) -> dict[str, Any]:
        brand_color: None | str
        brand_color = self.brand_color

        logo_url: None | str
        logo_url = self.logo_url

        appearance = self.appearance.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "brandColor": brand_color,
                "logoUrl": logo_url,
                "appearance": appearance,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_brand_color(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        brand_color = _parse_brand_color(d.pop("brandColor"))

        def _parse_logo_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        logo_url = _parse_logo_url(d.pop("logoUrl"))

        appearance = CurrentSessionThemeAppearance(d.pop("appearance"))

        current_session_theme = cls(
            brand_color=brand_color,
            logo_url=logo_url,
            appearance=appearance,
        )

        return current_session_theme
