"""The live service the tests drive: the local server the calling test started (test/clients/python.test.ts
passes its address and keys in the environment), a webhook receiver on loopback, and the sandbox
provider's consent run as a person's browser would."""

from __future__ import annotations

import http.server
import os
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.cookiejar import CookieJar

import pytest

from ces_client import Client


@dataclass
class Service:
    base_url: str
    api_key: str
    system_key: str
    organization_id: str
    #: A key holding connectors:read only (403 on webhooks; a rate-limit bucket of its own for the 429 test).
    read_key: str


@pytest.fixture(scope="session")
def service() -> Service:
    env = os.environ
    return Service(
        base_url=env["CES_BASE_URL"],
        api_key=env["CES_API_KEY"],
        system_key=env["CES_SYSTEM_KEY"],
        organization_id=env["CES_ORGANIZATION_ID"],
        read_key=env["CES_READ_KEY"],
    )


@pytest.fixture(scope="session")
def client(service: Service) -> Iterator[Client]:
    with Client(service.base_url, service.api_key) as c:
        yield c


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    base: str
    received: list[Received] = field(default_factory=list)

    def url(self, path: str) -> str:
        return self.base + path


@pytest.fixture(scope="session")
def receiver() -> Iterator[Receiver]:
    state = Receiver(base="")

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            state.received.append(Received(self.path, dict(self.headers.items()), body))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *_: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state
    server.shutdown()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *_: object, **__: object) -> None:
        return None


def consent_through_sandbox(connect_url: str, account: str) -> str:
    """A person's browser on a connect link: opens it, presses its button, approves consent at the
    sandbox for ``account``; returns the connection id the return URL carries."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()), _NoRedirect())

    def request(url: str, form: dict[str, str] | None = None) -> tuple[int, str | None, str]:
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        try:
            with opener.open(
                urllib.request.Request(url, data=data, method="POST" if form is not None else "GET")
            ) as r:
                return r.status, r.headers.get("Location"), r.read().decode()
        except urllib.error.HTTPError as answer:  # a 3xx not followed
            return answer.code, answer.headers.get("Location"), answer.read().decode()

    assert request(connect_url)[0] == 200
    _, authorize, _ = request(connect_url, {})
    assert authorize
    _, _, page = request(authorize)
    match = re.search(r'name="request_id" value="([^"]+)"', page)
    assert match, "the consent page has no request_id"
    parts = urllib.parse.urlsplit(authorize)
    _, callback, _ = request(
        f"{parts.scheme}://{parts.netloc}{parts.path}",
        {"request_id": match.group(1), "decision": "approve", "simulate": "none", "account_id": account},
    )
    assert callback
    _, back, _ = request(callback)
    assert back
    connection_id = urllib.parse.parse_qs(urllib.parse.urlsplit(back).query).get("connection_id", [None])[0]
    assert connection_id, f"the connect flow came back with {back}"
    return connection_id
