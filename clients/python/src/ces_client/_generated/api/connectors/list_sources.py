from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.source_list import SourceList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    parent: str | Unset = UNSET,
    limit: int | Unset = 50,
    page_token: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["parent"] = parent

    params["limit"] = limit

    params["page_token"] = page_token

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/connectors/v1/connections/{id}/sources".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | SourceList | None:
    if response.status_code == 200:
        response_200 = SourceList.from_dict(response.json())

        return response_200

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

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | SourceList]:
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
    parent: str | Unset = UNSET,
    limit: int | Unset = 50,
    page_token: str | Unset = UNSET,
) -> Response[Error | SourceList]:
    """Browse the provider through the connection: its top level (matters, folders) or a container's
    entries (`parent`), a page at a time (`page_token`)

     The API key needs the `connectors:read` permission.

    Args:
        id (str):
        parent (str | Unset):
        limit (int | Unset):  Default: 50.
        page_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SourceList]
    """

    kwargs = _get_kwargs(
        id=id,
        parent=parent,
        limit=limit,
        page_token=page_token,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    parent: str | Unset = UNSET,
    limit: int | Unset = 50,
    page_token: str | Unset = UNSET,
) -> Error | SourceList | None:
    """Browse the provider through the connection: its top level (matters, folders) or a container's
    entries (`parent`), a page at a time (`page_token`)

     The API key needs the `connectors:read` permission.

    Args:
        id (str):
        parent (str | Unset):
        limit (int | Unset):  Default: 50.
        page_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SourceList
    """

    return sync_detailed(
        id=id,
        client=client,
        parent=parent,
        limit=limit,
        page_token=page_token,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    parent: str | Unset = UNSET,
    limit: int | Unset = 50,
    page_token: str | Unset = UNSET,
) -> Response[Error | SourceList]:
    """Browse the provider through the connection: its top level (matters, folders) or a container's
    entries (`parent`), a page at a time (`page_token`)

     The API key needs the `connectors:read` permission.

    Args:
        id (str):
        parent (str | Unset):
        limit (int | Unset):  Default: 50.
        page_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SourceList]
    """

    kwargs = _get_kwargs(
        id=id,
        parent=parent,
        limit=limit,
        page_token=page_token,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    parent: str | Unset = UNSET,
    limit: int | Unset = 50,
    page_token: str | Unset = UNSET,
) -> Error | SourceList | None:
    """Browse the provider through the connection: its top level (matters, folders) or a container's
    entries (`parent`), a page at a time (`page_token`)

     The API key needs the `connectors:read` permission.

    Args:
        id (str):
        parent (str | Unset):
        limit (int | Unset):  Default: 50.
        page_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SourceList
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            parent=parent,
            limit=limit,
            page_token=page_token,
        )
    ).parsed
