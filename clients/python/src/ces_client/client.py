"""The client: one object with the base URL and the key, one method per operation grouped by area.
Requests and models come from the generated layer (``_generated``, openapi-python-client); this
layer adds errors, pagination, retries, idempotency keys and job polling."""

from __future__ import annotations

import enum
import time
import types
import typing
import uuid
from collections.abc import Callable, Mapping
from typing import Any

import httpx

from ._generated.api.applications import bind_application_key, list_applications, unbind_application_key
from ._generated.api.connectors import (
    create_connection,
    create_export,
    create_import_link,
    delete_connection,
    delete_import_link,
    get_connection,
    get_connector_job,
    get_import_link,
    list_connections,
    list_import_links,
    list_link_documents,
    list_providers,
    list_sources,
    list_sync_runs,
    set_provider_enabled,
    start_sync_run,
    update_import_link,
)
from ._generated.api.webhook_deliveries import (
    get_webhook_delivery,
    get_webhook_job,
    list_webhook_dead_letters,
    list_webhook_deliveries,
    publish_webhook_event,
    recover_webhook_endpoint,
    replay_webhook_delivery,
)
from ._generated.api.webhook_endpoints import (
    create_webhook_endpoint,
    delete_webhook_endpoint,
    disable_webhook_endpoint,
    enable_webhook_endpoint,
    get_webhook_endpoint,
    list_webhook_endpoints,
    list_webhook_event_types,
    rotate_webhook_secret,
    test_webhook_endpoint,
    update_webhook_endpoint,
)
from ._generated.client import AuthenticatedClient
from ._generated.models import (
    ConnectionDetail,
    ConnectionList,
    DeliveryList,
    ImportLink,
    ImportLinkList,
    JobStarted,
    LinkDocumentList,
    PendingConnection,
    SourceList,
    SyncRunList,
    WebhookEndpoint,
    WebhookEndpointList,
    WebhookEndpointWithSecret,
    WebhookJob,
)
from .errors import NotFoundError, error_for
from .pagination import Paginated
from .retry import RetryPolicy, RetryTransport


class JobTimeoutError(Exception):
    def __init__(self, job_id: str) -> None:
        super().__init__(f"Job {job_id} still running when the wait ended")
        self.job_id = job_id


def _members(annotation: Any) -> list[Any]:
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        return [m for a in typing.get_args(annotation) for m in _members(a)]
    return [annotation]


def _coerce(annotation: Any, value: Any) -> Any:
    """A plain value as the generated function wants it: a dict as its model (the first variant of a
    union that accepts it), a string as its enum."""
    for member in _members(annotation):
        if isinstance(member, type) and isinstance(value, member):
            return value
    for member in _members(annotation):
        if isinstance(value, Mapping) and hasattr(member, "from_dict"):
            try:
                return member.from_dict(dict(value))
            except (KeyError, ValueError, TypeError):
                continue
        if isinstance(value, str) and isinstance(member, type) and issubclass(member, enum.Enum):
            try:
                return member(value)
            except ValueError:
                continue
    return value


class _Transport:
    """Calls a generated operation: coerces arguments, raises the typed error of a non-2xx answer,
    returns the parsed model of a 2xx one."""

    def __init__(self, http: AuthenticatedClient) -> None:
        self.http = http
        self._hints: dict[Callable[..., Any], dict[str, Any]] = {}

    def __call__(self, operation: types.ModuleType, *args: Any, **kwargs: Any) -> Any:
        function = operation.sync_detailed
        if function not in self._hints:
            self._hints[function] = typing.get_type_hints(function)
        hints = self._hints[function]
        arguments = {k: _coerce(hints.get(k), v) for k, v in kwargs.items() if v is not None}
        response = function(*args, client=self.http, **arguments)
        if not 200 <= response.status_code < 300:
            raise error_for(response.status_code, response.content, response.headers)
        return response.parsed


class Client:
    """``Client(base_url, api_key)``: areas ``providers``, ``connections``, ``links``, ``exports``,
    ``jobs``, ``endpoints``, ``events``, ``deliveries``, ``event_types``, ``dead_letters``,
    ``applications``."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        retry: RetryPolicy | None = None,
        timeout: float = 30.0,
        transport: Any = None,
    ) -> None:
        self._http = AuthenticatedClient(
            base_url=base_url.rstrip("/"),
            token=api_key,
            timeout=httpx.Timeout(timeout),
            httpx_args={"transport": RetryTransport(retry or RetryPolicy(), transport)},
        )
        call = _Transport(self._http)
        self.providers = _Providers(call)
        self.connections = _Connections(call)
        self.links = _Links(call)
        self.exports = _Exports(call)
        self.jobs = _Jobs(call)
        self.endpoints = _Endpoints(call)
        self.events = _Events(call)
        self.deliveries = _Deliveries(call)
        self.event_types = _EventTypes(call)
        self.dead_letters = _DeadLetters(call)
        self.applications = _Applications(call)

    def close(self) -> None:
        self._http.get_httpx_client().close()

    def __enter__(self) -> Client:  # noqa: PYI034 (Self needs typing_extensions below 3.11)
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _key(given: str | None) -> str:
    # Sent as Idempotency-Key: a retry with the same key answers the first outcome.
    return given or str(uuid.uuid4())


class _Area:
    def __init__(self, call: _Transport) -> None:
        self._call = call


class _Providers(_Area):
    def list(self) -> Any:
        return self._call(list_providers)


class _Connections(_Area):
    def create(self, body: Mapping[str, Any], *, idempotency_key: str | None = None) -> PendingConnection:
        return self._call(create_connection, body=body, idempotency_key=_key(idempotency_key))

    def list(
        self, *, provider: str | None = None, status: str | None = None, limit: int | None = None
    ) -> Paginated[Any]:
        return Paginated(
            lambda **q: self._call(list_connections, **q),
            {"provider": provider, "status": status, "limit": limit},
        )

    def get(self, id: str) -> ConnectionDetail:
        return self._call(get_connection, id)

    def delete(self, id: str, *, purge: bool | None = None) -> JobStarted | None:
        """Disconnects; with ``purge=True`` also deletes what it imported (a job: ``jobs.wait``)."""
        started = self._call(delete_connection, id, purge=None if purge is None else str(purge).lower())
        return started if isinstance(started, JobStarted) else None

    def set_provider_enabled(self, body: Mapping[str, Any]) -> Any:
        return self._call(set_provider_enabled, body=body)

    def sources(self, id: str, *, parent: str | None = None, limit: int | None = None) -> Paginated[Any]:
        """The provider's matters and folders; ``parent`` lists inside one."""
        return Paginated(lambda **q: self._call(list_sources, id, **q), {"parent": parent, "limit": limit})


class _Runs(_Area):
    def start(self, link_id: str, body: Mapping[str, Any] | None = None) -> JobStarted:
        """Starts an import run now; the answer names the job to ``jobs.wait`` for."""
        return self._call(start_sync_run, link_id, body=body)

    def list(self, link_id: str, *, limit: int | None = None) -> Paginated[Any]:
        return Paginated(lambda **q: self._call(list_sync_runs, link_id, **q), {"limit": limit})


class _Links(_Area):
    def __init__(self, call: _Transport) -> None:
        super().__init__(call)
        self.runs = _Runs(call)

    def create(self, connection_id: str, body: Mapping[str, Any]) -> ImportLink:
        return self._call(create_import_link, connection_id, body=body)

    def list(self, connection_id: str, *, limit: int | None = None) -> Paginated[ImportLink]:
        return Paginated(lambda **q: self._call(list_import_links, connection_id, **q), {"limit": limit})

    def get(self, id: str) -> ImportLink:
        return self._call(get_import_link, id)

    def update(self, id: str, body: Mapping[str, Any]) -> ImportLink:
        return self._call(update_import_link, id, body=body)

    def delete(self, id: str) -> None:
        self._call(delete_import_link, id)

    def documents(
        self, link_id: str, *, limit: int | None = None, changed_since: str | None = None
    ) -> Paginated[Any]:
        """The documents a link imported, across every page."""
        return Paginated(
            lambda **q: self._call(list_link_documents, link_id, **q),
            {"limit": limit, "changed_since": changed_since},
        )


class _Exports(_Area):
    def create(self, connection_id: str, body: Mapping[str, Any]) -> JobStarted:
        return self._call(create_export, connection_id, body=body)


class _Jobs(_Area):
    def get(self, id: str) -> Any:
        return self._call(get_connector_job, id)

    def get_webhook_job(self, id: str) -> WebhookJob:
        return self._call(get_webhook_job, id)

    def wait(self, job: str | Any, *, interval: float = 1.0, timeout: float = 300.0) -> Any:
        """Polls a job (an import run, an export, a purge, or an endpoint recovery) until it leaves
        ``processing``, and returns it as it ended (check ``status``)."""
        job_id = job if isinstance(job, str) else job.id
        deadline = time.monotonic() + timeout
        # Both areas' jobs share the id format: the first answer says which area holds this one.
        try:
            current = self.get(job_id)
            get: Callable[[str], Any] = self.get
        except NotFoundError:
            current = self.get_webhook_job(job_id)
            get = self.get_webhook_job
        while (
            str(current.status.value if hasattr(current.status, "value") else current.status) == "processing"
        ):
            if time.monotonic() >= deadline:
                raise JobTimeoutError(job_id)
            time.sleep(interval)
            current = get(job_id)
        return current


class _Endpoints(_Area):
    def create(self, body: Mapping[str, Any]) -> WebhookEndpointWithSecret:
        """The answer carries the signing secret, shown this once."""
        return self._call(create_webhook_endpoint, body=body)

    def list(self, *, limit: int | None = None) -> Paginated[WebhookEndpoint]:
        return Paginated(lambda **q: self._call(list_webhook_endpoints, **q), {"limit": limit})

    def get(self, id: str) -> WebhookEndpoint:
        return self._call(get_webhook_endpoint, id)

    def update(self, id: str, body: Mapping[str, Any]) -> WebhookEndpoint:
        return self._call(update_webhook_endpoint, id, body=body)

    def delete(self, id: str) -> None:
        self._call(delete_webhook_endpoint, id)

    def enable(self, id: str) -> WebhookEndpoint:
        return self._call(enable_webhook_endpoint, id)

    def disable(self, id: str) -> WebhookEndpoint:
        return self._call(disable_webhook_endpoint, id)

    def rotate_secret(self, id: str) -> Any:
        return self._call(rotate_webhook_secret, id)

    def test(self, id: str) -> Any:
        return self._call(test_webhook_endpoint, id)

    def recover(self, id: str, body: Mapping[str, Any]) -> WebhookJob:
        """Redelivers a window's failed deliveries (a job: ``jobs.wait``)."""
        return self._call(recover_webhook_endpoint, id, body=body)

    def deliveries(
        self,
        id: str,
        *,
        limit: int | None = None,
        status: str | None = None,
        event_type: str | None = None,
        event_id: str | None = None,
    ) -> Paginated[Any]:
        return Paginated(
            lambda **q: self._call(list_webhook_deliveries, id, **q),
            {"limit": limit, "status": status, "event_type": event_type, "event_id": event_id},
        )


class _Events(_Area):
    def publish(self, body: Mapping[str, Any], *, idempotency_key: str | None = None) -> Any:
        """Publishes an event to the organization's endpoints (a system key)."""
        return self._call(publish_webhook_event, body=body, idempotency_key=_key(idempotency_key))


class _Deliveries(_Area):
    def get(self, id: str) -> Any:
        return self._call(get_webhook_delivery, id)

    def replay(self, id: str) -> Any:
        return self._call(replay_webhook_delivery, id)


class _EventTypes(_Area):
    def list(self, *, limit: int | None = None) -> Paginated[Any]:
        return Paginated(lambda **q: self._call(list_webhook_event_types, **q), {"limit": limit})


class _DeadLetters(_Area):
    def list(self, *, limit: int | None = None) -> Any:
        return self._call(list_webhook_dead_letters, limit=limit)


class _Applications(_Area):
    def list(self, *, limit: int | None = None) -> Paginated[Any]:
        return Paginated(lambda **q: self._call(list_applications, **q), {"limit": limit})

    def bind_key(self, id: str, key_id: str) -> Any:
        return self._call(bind_application_key, id, key_id)

    def unbind_key(self, id: str, key_id: str) -> None:
        self._call(unbind_application_key, id, key_id)


__all__ = [
    "Client",
    "ConnectionList",
    "DeliveryList",
    "ImportLinkList",
    "JobTimeoutError",
    "LinkDocumentList",
    "SourceList",
    "SyncRunList",
    "WebhookEndpointList",
]
