"""Connect -> import -> export, and a webhook verified: CES_BASE_URL, CES_API_KEY, PORT (the receiver's)."""

import http.server
import os
import threading
import time

from ces_client import Client, verify

client = Client(os.environ["CES_BASE_URL"], os.environ["CES_API_KEY"])
port = int(os.environ.get("PORT", "8080"))
hook = {"url": f"http://localhost:{port}/hooks", "eventTypeFilters": ["connector.sync.completed"]}
secret = client.endpoints.create(hook).signing_secret
verified = []


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        verified.append(verify(body, self.headers, secret))  # raises on a bad signature
        self.send_response(204)
        self.end_headers()


server = http.server.ThreadingHTTPServer(("localhost", port), Receiver)
threading.Thread(target=server.serve_forever, daemon=True).start()

pending = client.connections.create({"provider": "practice", "return_url": "https://app.example.com/back"})
print(f"Open {pending.connect_url}", flush=True)  # the user consents there
while client.connections.get(pending.connection_id).status != "healthy":
    time.sleep(1)

matter = client.connections.sources(pending.connection_id).first().data[0]
link = client.links.create(pending.connection_id, {"vault_id": "vlt_demo", "source": {"id": matter.id}})
print("import", client.jobs.wait(client.links.runs.start(link.id)).status)
ids = [document.document_id for document in client.links.documents(link.id)]
body = {"vault_id": "vlt_demo", "document_ids": ids, "destination": {"id": matter.id}}
print("export", client.jobs.wait(client.exports.create(pending.connection_id, body)).status)

while not verified:
    time.sleep(0.2)
print("webhook verified", verified[0]["type"], flush=True)
server.shutdown()
