from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.oauth_callback_provider import OauthCallbackProvider
from ...types import UNSET, Response, Unset


def _get_kwargs(
    provider: OauthCallbackProvider,
    *,
    code: str | Unset = UNSET,
    state: str,
    error: str | Unset = UNSET,
    iss: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["code"] = code

    params["state"] = state

    params["error"] = error

    params["iss"] = iss

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/connectors/v1/oauth/{provider}/callback".format(
            provider=quote(str(provider), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | None:
    if response.status_code == 302:
        response_302 = cast(Any, None)
        return response_302

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

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
) -> Response[Any | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    provider: OauthCallbackProvider,
    *,
    client: AuthenticatedClient | Client,
    code: str | Unset = UNSET,
    state: str,
    error: str | Unset = UNSET,
    iss: str | Unset = UNSET,
) -> Response[Any | Error]:
    """The provider redirects the browser here: code exchange, tokens sealed, back to return_url

    Args:
        provider (OauthCallbackProvider):
        code (str | Unset):
        state (str):
        error (str | Unset):
        iss (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
    """

    kwargs = _get_kwargs(
        provider=provider,
        code=code,
        state=state,
        error=error,
        iss=iss,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    provider: OauthCallbackProvider,
    *,
    client: AuthenticatedClient | Client,
    code: str | Unset = UNSET,
    state: str,
    error: str | Unset = UNSET,
    iss: str | Unset = UNSET,
) -> Any | Error | None:
    """The provider redirects the browser here: code exchange, tokens sealed, back to return_url

    Args:
        provider (OauthCallbackProvider):
        code (str | Unset):
        state (str):
        error (str | Unset):
        iss (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error
    """

    return sync_detailed(
        provider=provider,
        client=client,
        code=code,
        state=state,
        error=error,
        iss=iss,
    ).parsed


async def asyncio_detailed(
    provider: OauthCallbackProvider,
    *,
    client: AuthenticatedClient | Client,
    code: str | Unset = UNSET,
    state: str,
    error: str | Unset = UNSET,
    iss: str | Unset = UNSET,
) -> Response[Any | Error]:
    """The provider redirects the browser here: code exchange, tokens sealed, back to return_url

    Args:
        provider (OauthCallbackProvider):
        code (str | Unset):
        state (str):
        error (str | Unset):
        iss (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
    """

    kwargs = _get_kwargs(
        provider=provider,
        code=code,
        state=state,
        error=error,
        iss=iss,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    provider: OauthCallbackProvider,
    *,
    client: AuthenticatedClient | Client,
    code: str | Unset = UNSET,
    state: str,
    error: str | Unset = UNSET,
    iss: str | Unset = UNSET,
) -> Any | Error | None:
    """The provider redirects the browser here: code exchange, tokens sealed, back to return_url

    Args:
        provider (OauthCallbackProvider):
        code (str | Unset):
        state (str):
        error (str | Unset):
        iss (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error
    """

    return (
        await asyncio_detailed(
            provider=provider,
            client=client,
            code=code,
            state=state,
            error=error,
            iss=iss,
        )
    ).parsed
