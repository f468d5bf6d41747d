from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_connection_request_type_0 import CreateConnectionRequestType0
from ...models.create_connection_request_type_1 import CreateConnectionRequestType1
from ...models.create_connection_request_type_2 import CreateConnectionRequestType2
from ...models.create_connection_request_type_3 import CreateConnectionRequestType3
from ...models.create_connection_request_type_4 import CreateConnectionRequestType4
from ...models.create_connection_request_type_5 import CreateConnectionRequestType5
from ...models.create_connection_request_type_6 import CreateConnectionRequestType6
from ...models.create_connection_request_type_7 import CreateConnectionRequestType7
from ...models.create_connection_request_type_8 import CreateConnectionRequestType8
from ...models.error import Error
from ...models.pending_connection import PendingConnection
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CreateConnectionRequestType0
    | CreateConnectionRequestType1
    | CreateConnectionRequestType2
    | CreateConnectionRequestType3
    | CreateConnectionRequestType4
    | CreateConnectionRequestType5
    | CreateConnectionRequestType6
    | CreateConnectionRequestType7
    | CreateConnectionRequestType8,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/connectors/v1/connections",
    }

    if (
        isinstance(body, CreateConnectionRequestType0)
        or isinstance(body, CreateConnectionRequestType1)
        or isinstance(body, CreateConnectionRequestType2)
        or isinstance(body, CreateConnectionRequestType3)
        or isinstance(body, CreateConnectionRequestType4)
        or isinstance(body, CreateConnectionRequestType5)
        or isinstance(body, CreateConnectionRequestType6)
        or isinstance(body, CreateConnectionRequestType7)
    ):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PendingConnection | None:
    if response.status_code == 201:
        response_201 = PendingConnection.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 431:
        response_431 = Error.from_dict(response.json())

        return response_431

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | PendingConnection]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateConnectionRequestType0
    | CreateConnectionRequestType1
    | CreateConnectionRequestType2
    | CreateConnectionRequestType3
    | CreateConnectionRequestType4
    | CreateConnectionRequestType5
    | CreateConnectionRequestType6
    | CreateConnectionRequestType7
    | CreateConnectionRequestType8,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | PendingConnection]:
    """Create a pending connection and its one-time connect URL

     The API key needs the `connectors:write` permission.

    Args:
        idempotency_key (str | Unset):
        body (CreateConnectionRequestType0 | CreateConnectionRequestType1 |
            CreateConnectionRequestType2 | CreateConnectionRequestType3 | CreateConnectionRequestType4
            | CreateConnectionRequestType5 | CreateConnectionRequestType6 |
            CreateConnectionRequestType7 | CreateConnectionRequestType8):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PendingConnection]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: CreateConnectionRequestType0
    | CreateConnectionRequestType1
    | CreateConnectionRequestType2
    | CreateConnectionRequestType3
    | CreateConnectionRequestType4
    | CreateConnectionRequestType5
    | CreateConnectionRequestType6
    | CreateConnectionRequestType7
    | CreateConnectionRequestType8,
    idempotency_key: str | Unset = UNSET,
) -> Error | PendingConnection | None:
    """Create a pending connection and its one-time connect URL

     The API key needs the `connectors:write` permission.

    Args:
        idempotency_key (str | Unset):
        body (CreateConnectionRequestType0 | CreateConnectionRequestType1 |
            CreateConnectionRequestType2 | CreateConnectionRequestType3 | CreateConnectionRequestType4
            | CreateConnectionRequestType5 | CreateConnectionRequestType6 |
            CreateConnectionRequestType7 | CreateConnectionRequestType8):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PendingConnection
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateConnectionRequestType0
    | CreateConnectionRequestType1
    | CreateConnectionRequestType2
    | CreateConnectionRequestType3
    | CreateConnectionRequestType4
    | CreateConnectionRequestType5
    | CreateConnectionRequestType6
    | CreateConnectionRequestType7
    | CreateConnectionRequestType8,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | PendingConnection]:
    """Create a pending connection and its one-time connect URL

     The API key needs the `connectors:write` permission.

    Args:
        idempotency_key (str | Unset):
        body (CreateConnectionRequestType0 | CreateConnectionRequestType1 |
            CreateConnectionRequestType2 | CreateConnectionRequestType3 | CreateConnectionRequestType4
            | CreateConnectionRequestType5 | CreateConnectionRequestType6 |
            CreateConnectionRequestType7 | CreateConnectionRequestType8):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PendingConnection]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateConnectionRequestType0
    | CreateConnectionRequestType1
    | CreateConnectionRequestType2
    | CreateConnectionRequestType3
    | CreateConnectionRequestType4
    | CreateConnectionRequestType5
    | CreateConnectionRequestType6
    | CreateConnectionRequestType7
    | CreateConnectionRequestType8,
    idempotency_key: str | Unset = UNSET,
) -> Error | PendingConnection | None:
    """Create a pending connection and its one-time connect URL

     The API key needs the `connectors:write` permission.

    Args:
        idempotency_key (str | Unset):
        body (CreateConnectionRequestType0 | CreateConnectionRequestType1 |
            CreateConnectionRequestType2 | CreateConnectionRequestType3 | CreateConnectionRequestType4
            | CreateConnectionRequestType5 | CreateConnectionRequestType6 |
            CreateConnectionRequestType7 | CreateConnectionRequestType8):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PendingConnection
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
