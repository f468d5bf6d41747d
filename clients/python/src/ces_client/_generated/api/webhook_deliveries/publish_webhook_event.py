from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.event import Event
from ...models.publish_webhook_event_request_type_0 import (
    PublishWebhookEventRequestType0,
)
from ...models.publish_webhook_event_request_type_1 import (
    PublishWebhookEventRequestType1,
)
from ...models.publish_webhook_event_request_type_2 import (
    PublishWebhookEventRequestType2,
)
from ...models.publish_webhook_event_request_type_3 import (
    PublishWebhookEventRequestType3,
)
from ...models.publish_webhook_event_request_type_4 import (
    PublishWebhookEventRequestType4,
)
from ...models.publish_webhook_event_request_type_5 import (
    PublishWebhookEventRequestType5,
)
from ...models.publish_webhook_event_request_type_6 import (
    PublishWebhookEventRequestType6,
)
from ...models.publish_webhook_event_request_type_7 import (
    PublishWebhookEventRequestType7,
)
from ...models.publish_webhook_event_request_type_8 import (
    PublishWebhookEventRequestType8,
)
from ...models.publish_webhook_event_request_type_9 import (
    PublishWebhookEventRequestType9,
)
from ...models.publish_webhook_event_request_type_10 import (
    PublishWebhookEventRequestType10,
)
from ...models.publish_webhook_event_request_type_11 import (
    PublishWebhookEventRequestType11,
)
from ...models.publish_webhook_event_request_type_12 import (
    PublishWebhookEventRequestType12,
)
from ...models.publish_webhook_event_request_type_13 import (
    PublishWebhookEventRequestType13,
)
from ...models.publish_webhook_event_request_type_14 import (
    PublishWebhookEventRequestType14,
)
from ...models.publish_webhook_event_request_type_15 import (
    PublishWebhookEventRequestType15,
)
from ...models.publish_webhook_event_request_type_16 import (
    PublishWebhookEventRequestType16,
)
from ...models.publish_webhook_event_request_type_17 import (
    PublishWebhookEventRequestType17,
)
from ...models.publish_webhook_event_request_type_18 import (
    PublishWebhookEventRequestType18,
)
from ...models.publish_webhook_event_request_type_19 import (
    PublishWebhookEventRequestType19,
)
from ...models.publish_webhook_event_request_type_20 import (
    PublishWebhookEventRequestType20,
)
from ...models.publish_webhook_event_request_type_21 import (
    PublishWebhookEventRequestType21,
)
from ...models.publish_webhook_event_request_type_22 import (
    PublishWebhookEventRequestType22,
)
from ...models.publish_webhook_event_request_type_23 import (
    PublishWebhookEventRequestType23,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: PublishWebhookEventRequestType0
    | PublishWebhookEventRequestType1
    | PublishWebhookEventRequestType10
    | PublishWebhookEventRequestType11
    | PublishWebhookEventRequestType12
    | PublishWebhookEventRequestType13
    | PublishWebhookEventRequestType14
    | PublishWebhookEventRequestType15
    | PublishWebhookEventRequestType16
    | PublishWebhookEventRequestType17
    | PublishWebhookEventRequestType18
    | PublishWebhookEventRequestType19
    | PublishWebhookEventRequestType2
    | PublishWebhookEventRequestType20
    | PublishWebhookEventRequestType21
    | PublishWebhookEventRequestType22
    | PublishWebhookEventRequestType23
    | PublishWebhookEventRequestType3
    | PublishWebhookEventRequestType4
    | PublishWebhookEventRequestType5
    | PublishWebhookEventRequestType6
    | PublishWebhookEventRequestType7
    | PublishWebhookEventRequestType8
    | PublishWebhookEventRequestType9,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/webhooks/v1/events",
    }

    if (
        isinstance(body, PublishWebhookEventRequestType0)
        or isinstance(body, PublishWebhookEventRequestType1)
        or isinstance(body, PublishWebhookEventRequestType2)
        or isinstance(body, PublishWebhookEventRequestType3)
        or isinstance(body, PublishWebhookEventRequestType4)
        or isinstance(body, PublishWebhookEventRequestType5)
        or isinstance(body, PublishWebhookEventRequestType6)
        or isinstance(body, PublishWebhookEventRequestType7)
        or isinstance(body, PublishWebhookEventRequestType8)
        or isinstance(body, PublishWebhookEventRequestType9)
        or isinstance(body, PublishWebhookEventRequestType10)
        or isinstance(body, PublishWebhookEventRequestType11)
        or isinstance(body, PublishWebhookEventRequestType12)
        or isinstance(body, PublishWebhookEventRequestType13)
        or isinstance(body, PublishWebhookEventRequestType14)
        or isinstance(body, PublishWebhookEventRequestType15)
        or isinstance(body, PublishWebhookEventRequestType16)
        or isinstance(body, PublishWebhookEventRequestType17)
        or isinstance(body, PublishWebhookEventRequestType18)
        or isinstance(body, PublishWebhookEventRequestType19)
        or isinstance(body, PublishWebhookEventRequestType20)
        or isinstance(body, PublishWebhookEventRequestType21)
        or isinstance(body, PublishWebhookEventRequestType22)
    ):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Event | None:
    if response.status_code == 202:
        response_202 = Event.from_dict(response.json())

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
) -> Response[Error | Event]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PublishWebhookEventRequestType0
    | PublishWebhookEventRequestType1
    | PublishWebhookEventRequestType10
    | PublishWebhookEventRequestType11
    | PublishWebhookEventRequestType12
    | PublishWebhookEventRequestType13
    | PublishWebhookEventRequestType14
    | PublishWebhookEventRequestType15
    | PublishWebhookEventRequestType16
    | PublishWebhookEventRequestType17
    | PublishWebhookEventRequestType18
    | PublishWebhookEventRequestType19
    | PublishWebhookEventRequestType2
    | PublishWebhookEventRequestType20
    | PublishWebhookEventRequestType21
    | PublishWebhookEventRequestType22
    | PublishWebhookEventRequestType23
    | PublishWebhookEventRequestType3
    | PublishWebhookEventRequestType4
    | PublishWebhookEventRequestType5
    | PublishWebhookEventRequestType6
    | PublishWebhookEventRequestType7
    | PublishWebhookEventRequestType8
    | PublishWebhookEventRequestType9,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | Event]:
    """Publish an event for an organization (system keys only: platform services)

     Only a system key (a platform service) may call this operation.

    Args:
        idempotency_key (str | Unset):
        body (PublishWebhookEventRequestType0 | PublishWebhookEventRequestType1 |
            PublishWebhookEventRequestType10 | PublishWebhookEventRequestType11 |
            PublishWebhookEventRequestType12 | PublishWebhookEventRequestType13 |
            PublishWebhookEventRequestType14 | PublishWebhookEventRequestType15 |
            PublishWebhookEventRequestType16 | PublishWebhookEventRequestType17 |
            PublishWebhookEventRequestType18 | PublishWebhookEventRequestType19 |
            PublishWebhookEventRequestType2 | PublishWebhookEventRequestType20 |
            PublishWebhookEventRequestType21 | PublishWebhookEventRequestType22 |
            PublishWebhookEventRequestType23 | PublishWebhookEventRequestType3 |
            PublishWebhookEventRequestType4 | PublishWebhookEventRequestType5 |
            PublishWebhookEventRequestType6 | PublishWebhookEventRequestType7 |
            PublishWebhookEventRequestType8 | PublishWebhookEventRequestType9):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Event]
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
    body: PublishWebhookEventRequestType0
    | PublishWebhookEventRequestType1
    | PublishWebhookEventRequestType10
    | PublishWebhookEventRequestType11
    | PublishWebhookEventRequestType12
    | PublishWebhookEventRequestType13
    | PublishWebhookEventRequestType14
    | PublishWebhookEventRequestType15
    | PublishWebhookEventRequestType16
    | PublishWebhookEventRequestType17
    | PublishWebhookEventRequestType18
    | PublishWebhookEventRequestType19
    | PublishWebhookEventRequestType2
    | PublishWebhookEventRequestType20
    | PublishWebhookEventRequestType21
    | PublishWebhookEventRequestType22
    | PublishWebhookEventRequestType23
    | PublishWebhookEventRequestType3
    | PublishWebhookEventRequestType4
    | PublishWebhookEventRequestType5
    | PublishWebhookEventRequestType6
    | PublishWebhookEventRequestType7
    | PublishWebhookEventRequestType8
    | PublishWebhookEventRequestType9,
    idempotency_key: str | Unset = UNSET,
) -> Error | Event | None:
    """Publish an event for an organization (system keys only: platform services)

     Only a system key (a platform service) may call this operation.

    Args:
        idempotency_key (str | Unset):
        body (PublishWebhookEventRequestType0 | PublishWebhookEventRequestType1 |
            PublishWebhookEventRequestType10 | PublishWebhookEventRequestType11 |
            PublishWebhookEventRequestType12 | PublishWebhookEventRequestType13 |
            PublishWebhookEventRequestType14 | PublishWebhookEventRequestType15 |
            PublishWebhookEventRequestType16 | PublishWebhookEventRequestType17 |
            PublishWebhookEventRequestType18 | PublishWebhookEventRequestType19 |
            PublishWebhookEventRequestType2 | PublishWebhookEventRequestType20 |
            PublishWebhookEventRequestType21 | PublishWebhookEventRequestType22 |
            PublishWebhookEventRequestType23 | PublishWebhookEventRequestType3 |
            PublishWebhookEventRequestType4 | PublishWebhookEventRequestType5 |
            PublishWebhookEventRequestType6 | PublishWebhookEventRequestType7 |
            PublishWebhookEventRequestType8 | PublishWebhookEventRequestType9):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Event
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PublishWebhookEventRequestType0
    | PublishWebhookEventRequestType1
    | PublishWebhookEventRequestType10
    | PublishWebhookEventRequestType11
    | PublishWebhookEventRequestType12
    | PublishWebhookEventRequestType13
    | PublishWebhookEventRequestType14
    | PublishWebhookEventRequestType15
    | PublishWebhookEventRequestType16
    | PublishWebhookEventRequestType17
    | PublishWebhookEventRequestType18
    | PublishWebhookEventRequestType19
    | PublishWebhookEventRequestType2
    | PublishWebhookEventRequestType20
    | PublishWebhookEventRequestType21
    | PublishWebhookEventRequestType22
    | PublishWebhookEventRequestType23
    | PublishWebhookEventRequestType3
    | PublishWebhookEventRequestType4
    | PublishWebhookEventRequestType5
    | PublishWebhookEventRequestType6
    | PublishWebhookEventRequestType7
    | PublishWebhookEventRequestType8
    | PublishWebhookEventRequestType9,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | Event]:
    """Publish an event for an organization (system keys only: platform services)

     Only a system key (a platform service) may call this operation.

    Args:
        idempotency_key (str | Unset):
        body (PublishWebhookEventRequestType0 | PublishWebhookEventRequestType1 |
            PublishWebhookEventRequestType10 | PublishWebhookEventRequestType11 |
            PublishWebhookEventRequestType12 | PublishWebhookEventRequestType13 |
            PublishWebhookEventRequestType14 | PublishWebhookEventRequestType15 |
            PublishWebhookEventRequestType16 | PublishWebhookEventRequestType17 |
            PublishWebhookEventRequestType18 | PublishWebhookEventRequestType19 |
            PublishWebhookEventRequestType2 | PublishWebhookEventRequestType20 |
            PublishWebhookEventRequestType21 | PublishWebhookEventRequestType22 |
            PublishWebhookEventRequestType23 | PublishWebhookEventRequestType3 |
            PublishWebhookEventRequestType4 | PublishWebhookEventRequestType5 |
            PublishWebhookEventRequestType6 | PublishWebhookEventRequestType7 |
            PublishWebhookEventRequestType8 | PublishWebhookEventRequestType9):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Event]
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
    body: PublishWebhookEventRequestType0
    | PublishWebhookEventRequestType1
    | PublishWebhookEventRequestType10
    | PublishWebhookEventRequestType11
    | PublishWebhookEventRequestType12
    | PublishWebhookEventRequestType13
    | PublishWebhookEventRequestType14
    | PublishWebhookEventRequestType15
    | PublishWebhookEventRequestType16
    | PublishWebhookEventRequestType17
    | PublishWebhookEventRequestType18
    | PublishWebhookEventRequestType19
    | PublishWebhookEventRequestType2
    | PublishWebhookEventRequestType20
    | PublishWebhookEventRequestType21
    | PublishWebhookEventRequestType22
    | PublishWebhookEventRequestType23
    | PublishWebhookEventRequestType3
    | PublishWebhookEventRequestType4
    | PublishWebhookEventRequestType5
    | PublishWebhookEventRequestType6
    | PublishWebhookEventRequestType7
    | PublishWebhookEventRequestType8
    | PublishWebhookEventRequestType9,
    idempotency_key: str | Unset = UNSET,
) -> Error | Event | None:
    """Publish an event for an organization (system keys only: platform services)

     Only a system key (a platform service) may call this operation.

    Args:
        idempotency_key (str | Unset):
        body (PublishWebhookEventRequestType0 | PublishWebhookEventRequestType1 |
            PublishWebhookEventRequestType10 | PublishWebhookEventRequestType11 |
            PublishWebhookEventRequestType12 | PublishWebhookEventRequestType13 |
            PublishWebhookEventRequestType14 | PublishWebhookEventRequestType15 |
            PublishWebhookEventRequestType16 | PublishWebhookEventRequestType17 |
            PublishWebhookEventRequestType18 | PublishWebhookEventRequestType19 |
            PublishWebhookEventRequestType2 | PublishWebhookEventRequestType20 |
            PublishWebhookEventRequestType21 | PublishWebhookEventRequestType22 |
            PublishWebhookEventRequestType23 | PublishWebhookEventRequestType3 |
            PublishWebhookEventRequestType4 | PublishWebhookEventRequestType5 |
            PublishWebhookEventRequestType6 | PublishWebhookEventRequestType7 |
            PublishWebhookEventRequestType8 | PublishWebhookEventRequestType9):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Event
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
