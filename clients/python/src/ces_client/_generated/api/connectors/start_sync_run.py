from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.job_started import JobStarted
from ...models.start_sync_run_request import StartSyncRunRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: StartSyncRunRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/connectors/v1/links/{id}/runs".format(
            id=quote(str(id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | JobStarted | None:
    if response.status_code == 202:
        response_202 = JobStarted.from_dict(response.json())

        return response_202

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
) -> Response[Error | JobStarted]:
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
    body: StartSyncRunRequest | Unset = UNSET,
) -> Response[Error | JobStarted]:
    """Start an import run of the link, of the changes or ({"mode":"full"}) a full reconcile (one at a
    time: the run in flight is returned); poll GET /connectors/jobs/{id}

     The API key needs the `connectors:write` and `vaults:write` permissions.

    Args:
        id (str):
        body (StartSyncRunRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | JobStarted]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    body: StartSyncRunRequest | Unset = UNSET,
) -> Error | JobStarted | None:
    """Start an import run of the link, of the changes or ({"mode":"full"}) a full reconcile (one at a
    time: the run in flight is returned); poll GET /connectors/jobs/{id}

     The API key needs the `connectors:write` and `vaults:write` permissions.

    Args:
        id (str):
        body (StartSyncRunRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | JobStarted
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: StartSyncRunRequest | Unset = UNSET,
) -> Response[Error | JobStarted]:
    """Start an import run of the link, of the changes or ({"mode":"full"}) a full reconcile (one at a
    time: the run in flight is returned); poll GET /connectors/jobs/{id}

     The API key needs the `connectors:write` and `vaults:write` permissions.

    Args:
        id (str):
        body (StartSyncRunRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | JobStarted]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: StartSyncRunRequest | Unset = UNSET,
) -> Error | JobStarted | None:
    """Start an import run of the link, of the changes or ({"mode":"full"}) a full reconcile (one at a
    time: the run in flight is returned); poll GET /connectors/jobs/{id}

     The API key needs the `connectors:write` and `vaults:write` permissions.

    Args:
        id (str):
        body (StartSyncRunRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | JobStarted
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed
