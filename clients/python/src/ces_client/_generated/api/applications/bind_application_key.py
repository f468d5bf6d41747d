from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.key_binding import KeyBinding
from ...types import Response


def _get_kwargs(
    id: str,
    key_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/connectors/v1/applications/{id}/keys/{key_id}".format(
            id=quote(str(id), safe=""),
            key_id=quote(str(key_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | KeyBinding | None:
    if response.status_code == 200:
        response_200 = KeyBinding.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

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
) -> Response[Error | KeyBinding]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    key_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Error | KeyBinding]:
    """Bind a connector API key to an application (owner or admin console session); idempotent

     Needs a console session of the organization (owner or admin).

    Args:
        id (str):
        key_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | KeyBinding]
    """

    kwargs = _get_kwargs(
        id=id,
        key_id=key_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    key_id: str,
    *,
    client: AuthenticatedClient,
) -> Error | KeyBinding | None:
    """Bind a connector API key to an application (owner or admin console session); idempotent

     Needs a console session of the organization (owner or admin).

    Args:
        id (str):
        key_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | KeyBinding
    """

    return sync_detailed(
        id=id,
        key_id=key_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: str,
    key_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Error | KeyBinding]:
    """Bind a connector API key to an application (owner or admin console session); idempotent

     Needs a console session of the organization (owner or admin).

    Args:
        id (str):
        key_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | KeyBinding]
    """

    kwargs = _get_kwargs(
        id=id,
        key_id=key_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    key_id: str,
    *,
    client: AuthenticatedClient,
) -> Error | KeyBinding | None:
    """Bind a connector API key to an application (owner or admin console session); idempotent

     Needs a console session of the organization (owner or admin).

    Args:
        id (str):
        key_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | KeyBinding
    """

    return (
        await asyncio_detailed(
            id=id,
            key_id=key_id,
            client=client,
        )
    ).parsed
