from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.delete_connection_purge import DeleteConnectionPurge
from ...models.error import Error
from ...models.job_started import JobStarted
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    purge: DeleteConnectionPurge | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_purge: str | Unset = UNSET
    if not isinstance(purge, Unset):
        json_purge = purge.value

    params["purge"] = json_purge

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/connectors/v1/connections/{id}".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | JobStarted | None:
    if response.status_code == 202:
        response_202 = JobStarted.from_dict(response.json())

        return response_202

    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

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
) -> Response[Any | Error | JobStarted]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    purge: DeleteConnectionPurge | Unset = UNSET,
) -> Response[Any | Error | JobStarted]:
    """Disconnect: revoke the tokens at the provider, delete them, publish connection.revoked

     The API key needs the `connectors:write` permission.

    Args:
        id (str):
        purge (DeleteConnectionPurge | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | JobStarted]
    """

    kwargs = _get_kwargs(
        id=id,
        purge=purge,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    purge: DeleteConnectionPurge | Unset = UNSET,
) -> Any | Error | JobStarted | None:
    """Disconnect: revoke the tokens at the provider, delete them, publish connection.revoked

     The API key needs the `connectors:write` permission.

    Args:
        id (str):
        purge (DeleteConnectionPurge | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | JobStarted
    """

    return sync_detailed(
        id=id,
        client=client,
        purge=purge,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    purge: DeleteConnectionPurge | Unset = UNSET,
) -> Response[Any | Error | JobStarted]:
    """Disconnect: revoke the tokens at the provider, delete them, publish connection.revoked

     The API key needs the `connectors:write` permission.

    Args:
        id (str):
        purge (DeleteConnectionPurge | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | JobStarted]
    """

    kwargs = _get_kwargs(
        id=id,
        purge=purge,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    purge: DeleteConnectionPurge | Unset = UNSET,
) -> Any | Error | JobStarted | None:
    """Disconnect: revoke the tokens at the provider, delete them, publish connection.revoked

     The API key needs the `connectors:write` permission.

    Args:
        id (str):
        purge (DeleteConnectionPurge | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | JobStarted
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            purge=purge,
        )
    ).parsed
