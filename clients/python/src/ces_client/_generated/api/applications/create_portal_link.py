from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_portal_link_request_type_0 import CreatePortalLinkRequestType0
from ...models.create_portal_link_request_type_1 import CreatePortalLinkRequestType1
from ...models.error import Error
from ...models.portal_link import PortalLink
from ...types import Response


def _get_kwargs(
    *,
    body: CreatePortalLinkRequestType0 | CreatePortalLinkRequestType1,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/connectors/v1/portal/links",
    }

    if isinstance(body, CreatePortalLinkRequestType0):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PortalLink | None:
    if response.status_code == 201:
        response_201 = PortalLink.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

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
) -> Response[Error | PortalLink]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreatePortalLinkRequestType0 | CreatePortalLinkRequestType1,
) -> Response[Error | PortalLink]:
    """Mint a one-time link to the portal (or, with a system key, the full console): opened once within its
    lifetime, it signs the browser in

     The API key needs the `portal:write` permission.

    Args:
        body (CreatePortalLinkRequestType0 | CreatePortalLinkRequestType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PortalLink]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: CreatePortalLinkRequestType0 | CreatePortalLinkRequestType1,
) -> Error | PortalLink | None:
    """Mint a one-time link to the portal (or, with a system key, the full console): opened once within its
    lifetime, it signs the browser in

     The API key needs the `portal:write` permission.

    Args:
        body (CreatePortalLinkRequestType0 | CreatePortalLinkRequestType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PortalLink
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreatePortalLinkRequestType0 | CreatePortalLinkRequestType1,
) -> Response[Error | PortalLink]:
    """Mint a one-time link to the portal (or, with a system key, the full console): opened once within its
    lifetime, it signs the browser in

     The API key needs the `portal:write` permission.

    Args:
        body (CreatePortalLinkRequestType0 | CreatePortalLinkRequestType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PortalLink]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreatePortalLinkRequestType0 | CreatePortalLinkRequestType1,
) -> Error | PortalLink | None:
    """Mint a one-time link to the portal (or, with a system key, the full console): opened once within its
    lifetime, it signs the browser in

     The API key needs the `portal:write` permission.

    Args:
        body (CreatePortalLinkRequestType0 | CreatePortalLinkRequestType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PortalLink
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
