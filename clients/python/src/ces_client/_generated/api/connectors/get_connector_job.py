from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.export_job import ExportJob
from ...models.purge_job import PurgeJob
from ...models.sync_run import SyncRun
from ...types import Response


def _get_kwargs(
    id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/connectors/jobs/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | ExportJob | PurgeJob | SyncRun | None:
    if response.status_code == 200:

        def _parse_response_200(data: object) -> ExportJob | PurgeJob | SyncRun:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_connector_job_type_0 = PurgeJob.from_dict(data)

                return componentsschemas_connector_job_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_connector_job_type_1 = SyncRun.from_dict(data)

                return componentsschemas_connector_job_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_connector_job_type_2 = ExportJob.from_dict(data)

            return componentsschemas_connector_job_type_2

        response_200 = _parse_response_200(response.json())

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
) -> Response[Error | ExportJob | PurgeJob | SyncRun]:
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
) -> Response[Error | ExportJob | PurgeJob | SyncRun]:
    """Poll a connector job (a purge, an import run, an export): processing, then succeeded or failed, with
    counts

     The API key needs the `connectors:read` permission.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ExportJob | PurgeJob | SyncRun]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
) -> Error | ExportJob | PurgeJob | SyncRun | None:
    """Poll a connector job (a purge, an import run, an export): processing, then succeeded or failed, with
    counts

     The API key needs the `connectors:read` permission.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ExportJob | PurgeJob | SyncRun
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Error | ExportJob | PurgeJob | SyncRun]:
    """Poll a connector job (a purge, an import run, an export): processing, then succeeded or failed, with
    counts

     The API key needs the `connectors:read` permission.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ExportJob | PurgeJob | SyncRun]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
) -> Error | ExportJob | PurgeJob | SyncRun | None:
    """Poll a connector job (a purge, an import run, an export): processing, then succeeded or failed, with
    counts

     The API key needs the `connectors:read` permission.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ExportJob | PurgeJob | SyncRun
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
