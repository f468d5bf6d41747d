"""The Python client against the local server: the README's walkthrough (connect through the sandbox's
consent, browse, link, run and wait, documents across pages, export; an endpoint, a published event
received and verified, replayed), idempotency keys, and each error path as its typed error."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import Receiver, Service, consent_through_sandbox

from ces_client import (
    AuthenticationError,
    Client,
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    RetryPolicy,
    ValidationError,
    WebhookVerificationError,
    verify,
)

VAULT = "vlt_py_client"
RETURN_URL = "https://app.example.com/back"
state: dict[str, Any] = {}


def connect(client: Client, provider: str, account: str) -> str:
    pending = client.connections.create({"provider": provider, "return_url": RETURN_URL})
    return consent_through_sandbox(pending.connect_url, account)


def until(what: str, probe: Any, seconds: float = 30) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"waited {seconds} s for {what}")


def test_creates_a_connection_through_the_sandbox_consent(client: Client) -> None:
    assert "practice" in [p.id for p in client.providers.list().data]
    state["connection"] = connect(client, "practice", "acct-py-1")
    assert client.connections.get(state["connection"]).status == "healthy"
    assert state["connection"] in [c.id for c in client.connections.list(limit=1)]


def test_browses_across_pages_and_links_a_matter(client: Client) -> None:
    pages = list(client.connections.sources(state["connection"], limit=2).pages())
    assert len(pages) > 1
    matters = [m for page in pages for m in page.data]
    assert len({m.id for m in matters}) == len(matters)
    files = client.connections.sources(state["connection"], parent=matters[0].id).to_list()
    assert len(files) > 1
    link = client.links.create(state["connection"], {"vault_id": VAULT, "source": {"id": matters[0].id}})
    assert (link.connection_id, link.vault_id) == (state["connection"], VAULT)
    state["link"] = link.id


def test_runs_the_import_and_waits_for_its_job(client: Client) -> None:
    started = client.links.runs.start(state["link"])
    job = client.jobs.wait(started, interval=0.2, timeout=60)
    assert (job.id, job.kind, str(job.status)) == (started.id, "sync", "succeeded")
    assert job.counts.imported > 1
    state["imported"] = job.counts.imported
    assert started.id in [r.id for r in client.links.runs.list(state["link"])]


def test_lists_the_imported_documents_one_per_page(client: Client) -> None:
    pages = list(client.links.documents(state["link"], limit=1).pages())
    documents = [d for page in pages for d in page.data]
    assert len(documents) == state["imported"]
    assert len(pages) >= state["imported"]
    assert len({d.document_id for d in documents}) == state["imported"]


def test_exports_the_documents_to_a_folder(client: Client) -> None:
    drive = connect(client, "drive", "acct-py-drive")
    folder = next(s for s in client.connections.sources(drive) if str(s.kind) == "container")
    ids = [d.document_id for d in client.links.documents(state["link"])]
    started = client.exports.create(
        drive, {"vault_id": VAULT, "document_ids": ids, "destination": {"id": folder.id}}
    )
    job = client.jobs.wait(started.id, interval=0.2, timeout=60)
    assert (job.kind, str(job.status), job.counts.exported) == ("export", "succeeded", len(ids))


def test_receives_verifies_and_replays_an_event(client: Client, service: Service, receiver: Receiver) -> None:
    created = client.endpoints.create(
        {"url": receiver.url("/py-client"), "eventTypeFilters": ["matter.created"]}
    )
    secret = created.signing_secret
    assert secret.startswith("whsec_")
    assert created.endpoint.id in [e.id for e in client.endpoints.list(limit=1)]

    with Client(service.base_url, service.system_key) as system:
        event = system.events.publish(
            {
                "organizationId": service.organization_id,
                "type": "matter.created",
                "data": {"matterId": "mat_py_client", "name": "Client walkthrough"},
            }
        )

    def received() -> list[Any]:
        return [r for r in receiver.received if r.path == "/py-client"]

    until("the delivery", received)
    first = received()[0]
    assert verify(first.body, first.headers, secret)["id"] == event.id
    with pytest.raises(WebhookVerificationError) as refused:
        verify(first.body.replace(b"Client", b"Clint"), first.headers, secret)
    assert refused.value.reason == "no_matching_signature"

    def delivered() -> Any:
        found = [d for d in client.endpoints.deliveries(created.endpoint.id) if d.event_id == event.id]
        return found[0] if found and str(found[0].status) == "delivered" else None

    delivery = until("the delivery recorded as delivered", delivered)
    client.deliveries.replay(delivery.id)
    until("the replay", lambda: len(received()) > 1)
    replayed = received()[1]
    assert replayed.headers["webhook-id"] == first.headers["webhook-id"]
    assert verify(replayed.body, replayed.headers, secret)["id"] == event.id


def test_idempotency_keys_on_creates(client: Client) -> None:
    body = {"provider": "practice", "return_url": RETURN_URL}
    first = client.connections.create(body, idempotency_key="py-client-create-1")
    again = client.connections.create(body, idempotency_key="py-client-create-1")
    assert again.connection_id == first.connection_id
    # Without a key the client makes one per call: two calls, two connections.
    assert client.connections.create(body).connection_id != client.connections.create(body).connection_id
    with pytest.raises(ConflictError) as conflict:
        client.connections.create({**body, "provider": "drive"}, idempotency_key="py-client-create-1")
    assert (conflict.value.status, conflict.value.code) == (409, "CONFLICT")


def test_401_for_an_unknown_key(service: Service) -> None:
    with (
        Client(service.base_url, "sk_test_not_a_key") as stranger,
        pytest.raises(AuthenticationError) as error,
    ):
        stranger.providers.list()
    assert (error.value.status, error.value.code) == (401, "AUTH_INVALID")
    assert error.value.body["error"]["code"] == "AUTH_INVALID"
    assert "sk_test_not_a_key" not in str(error.value)


def test_403_for_a_key_without_the_permission(service: Service) -> None:
    with Client(service.base_url, service.read_key) as reader, pytest.raises(PermissionDeniedError) as error:
        reader.endpoints.list().first()
    assert (error.value.status, error.value.code) == (403, "PERMISSION_DENIED")


def test_404_for_an_unknown_resource(client: Client) -> None:
    with pytest.raises(NotFoundError) as error:
        client.connections.get("conn_aaaaaaaaaaaaaaaaaaaa")
    assert (error.value.status, error.value.code) == (404, "NOT_FOUND")
    assert error.value.request_id


def test_400_for_an_invalid_request(client: Client) -> None:
    # The service answers 400 INVALID_REQUEST for bad input (never 422); both map to ValidationError.
    with pytest.raises(ValidationError) as error:
        client.endpoints.create({"url": "not a url", "eventTypeFilters": ["matter.created"]})
    assert (error.value.status, error.value.code) == (400, "INVALID_REQUEST")


def test_429_with_retry_after(service: Service) -> None:
    with Client(service.base_url, service.read_key, retry=RetryPolicy(max_retries=0)) as impatient:
        limited = None

        def attempt(_: int) -> RateLimitError | None:
            try:
                impatient.providers.list()
            except RateLimitError as error:
                return error
            return None

        # Batches of concurrent calls, so the bucket (20/s refill) empties however slow the machine is.
        with ThreadPoolExecutor(max_workers=20) as pool:
            for _ in range(20):
                limited = next((e for e in pool.map(attempt, range(20)) if e is not None), None)
                if limited:
                    break
    assert limited is not None
    assert (limited.status, limited.code) == (429, "RATE_LIMIT_EXCEEDED")
    assert limited.retry_after is not None and limited.retry_after >= 1

    # At once, on the bucket just emptied, more calls than refill in the second Retry-After asks for:
    # the service refuses some with 429 (the transport sees them), the client waits each out, all resolve.
    statuses: list[int] = []

    class Counting(httpx.HTTPTransport):
        def handle_request(self, request: httpx.Request) -> httpx.Response:
            response = super().handle_request(request)
            statuses.append(response.status_code)
            return response

    with Client(service.base_url, service.read_key, transport=Counting()) as patient:
        started = time.monotonic()
        with ThreadPoolExecutor(max_workers=20) as pool:
            answers = list(pool.map(lambda _: patient.providers.list(), range(20)))
        elapsed = time.monotonic() - started
    assert all(answer.data for answer in answers)
    assert 429 in statuses
    assert elapsed >= limited.retry_after


VECTORS = json.loads((Path(__file__).parents[2] / "webhook-vectors.json").read_text())


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=[v["name"] for v in VECTORS["vectors"]])
def test_webhook_vectors_from_the_service_signer(vector: dict[str, Any]) -> None:
    def run() -> Any:
        return verify(
            vector["payload"],
            vector["headers"],
            vector["secrets"],
            now=vector["now"],
            tolerance=VECTORS["tolerance_seconds"],
        )

    if vector["expected"]["valid"]:
        assert run() == json.loads(vector["payload"])
    else:
        with pytest.raises(WebhookVerificationError) as error:
            run()
        assert error.value.reason == vector["expected"]["reason"]


EXAMPLE = Path(__file__).parents[1] / "examples" / "quickstart.py"


def test_the_readme_holds_the_quickstart_script() -> None:
    assert EXAMPLE.read_text() in (Path(__file__).parents[1] / "README.md").read_text()


def test_the_quickstart_script_connects_imports_exports_and_verifies_a_webhook(service: Service) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "CES_BASE_URL": service.base_url, "CES_API_KEY": service.api_key, "PORT": str(port)}
    script = subprocess.Popen(
        [sys.executable, str(EXAMPLE)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    assert script.stdout is not None
    output = []
    for line in script.stdout:
        output.append(line)
        if line.startswith("Open "):
            consent_through_sandbox(line.split()[1], "acct-py-quickstart")
    assert script.wait(timeout=60) == 0, "".join(output)
    text = "".join(output)
    assert "import succeeded" in text and "export succeeded" in text, text
    assert "webhook verified connector.sync.completed" in text, text
