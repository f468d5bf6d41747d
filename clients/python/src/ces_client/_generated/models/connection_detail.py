from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.connection_detail_provider import ConnectionDetailProvider
from ..models.connection_detail_status import ConnectionDetailStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.connection_detail_account_type_0 import ConnectionDetailAccountType0
    from ..models.connection_detail_params import ConnectionDetailParams
    from ..models.connection_detail_status_history_item import (
        ConnectionDetailStatusHistoryItem,
    )


T = TypeVar("T", bound="ConnectionDetail")


@_attrs_define
class ConnectionDetail:
    """
    Attributes:
        id (str):
        provider (ConnectionDetailProvider):
        status (ConnectionDetailStatus):
        enabled (bool): Whether the connection's provider is on for the organization
        scope_tier (str):
        account (ConnectionDetailAccountType0 | None): The provider account, once the connect flow has completed
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        status_history (list[ConnectionDetailStatusHistoryItem]): The statuses the connection entered, newest first (the
            last 20, kept 90 days)
        params (ConnectionDetailParams | Unset): The connection's params (its region or server): as given while pending,
            every one once connected
        pending_until (datetime.datetime | Unset): Pending connections only: when its connect flow can no longer
            complete (the connect link and the flow it starts have both expired)
        abandoned (bool | Unset): Pending connections only: true once pending_until has passed; the flow was never
            completed and cannot be
    """

    id: str
    provider: ConnectionDetailProvider
    status: ConnectionDetailStatus
    enabled: bool
    scope_tier: str
    account: ConnectionDetailAccountType0 | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    status_history: list[ConnectionDetailStatusHistoryItem]
    params: ConnectionDetailParams | Unset = UNSET
    pending_until: datetime.datetime | Unset = UNSET
    abandoned: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.connection_detail_account_type_0 import (
            ConnectionDetailAccountType0,
        )

        id = self.id

        provider = self.provider.value

        status = self.status.value

        enabled = self.enabled

        scope_tier = self.scope_tier

        account: dict[str, Any] | None
        if isinstance(self.account, ConnectionDetailAccountType0):
            account = self.account.to_dict()
        else:
            account = self.account

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        status_history = []
        for status_history_item_data in self.status_history:
            status_history_item = status_history_item_data.to_dict()
            status_history.append(status_history_item)

        params: dict[str, Any] | Unset = UNSET
        if not isinstance(self.params, Unset):
            params = self.params.to_dict()

        pending_until: str | Unset = UNSET
        if not isinstance(self.pending_until, Unset):
            pending_until = self.pending_until.isoformat()

        abandoned = self.abandoned

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "provider": provider,
                "status": status,
                "enabled": enabled,
                "scope_tier": scope_tier,
                "account": account,
                "created_at": created_at,
                "updated_at": updated_at,
                "status_history": status_history,
            }
        )
        if params is not UNSET:
            field_dict["params"] = params
        if pending_until is not UNSET:
            field_dict["pending_until"] = pending_until
        if abandoned is not UNSET:
            field_dict["abandoned"] = abandoned

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.connection_detail_account_type_0 import (
            ConnectionDetailAccountType0,
        )
        from ..models.connection_detail_params import ConnectionDetailParams
        from ..models.connection_detail_status_history_item import (
            ConnectionDetailStatusHistoryItem,
        )

        d = dict(src_dict)
        id = d.pop("id")

        provider = ConnectionDetailProvider(d.pop("provider"))

        status = ConnectionDetailStatus(d.pop("status"))

        enabled = d.pop("enabled")

        scope_tier = d.pop("scope_tier")

        def _parse_account(data: object) -> ConnectionDetailAccountType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                account_type_0 = ConnectionDetailAccountType0.from_dict(data)

                return account_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ConnectionDetailAccountType0 | None, data)

        account = _parse_account(d.pop("account"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        status_history = []
        _status_history = d.pop("status_history")
        for status_history_item_data in _status_history:
            status_history_item = ConnectionDetailStatusHistoryItem.from_dict(
                status_history_item_data
            )

            status_history.append(status_history_item)

        _params = d.pop("params", UNSET)
        params: ConnectionDetailParams | Unset
        if isinstance(_params, Unset):
            params = UNSET
        else:
            params = ConnectionDetailParams.from_dict(_params)

        _pending_until = d.pop("pending_until", UNSET)
        pending_until: datetime.datetime | Unset
        if isinstance(_pending_until, Unset):
            pending_until = UNSET
        else:
            pending_until = datetime.datetime.fromisoformat(_pending_until)

        abandoned = d.pop("abandoned", UNSET)

        connection_detail = cls(
            id=id,
            provider=provider,
            status=status,
            enabled=enabled,
            scope_tier=scope_tier,
            account=account,
            created_at=created_at,
            updated_at=updated_at,
            status_history=status_history,
            params=params,
            pending_until=pending_until,
            abandoned=abandoned,
        )

        return connection_detail
