#!/usr/bin/env bash
# Schemathesis over the served OpenAPI document: starts `npm start`'s local server on a free port with a
# fresh data directory, makes real resources for the run (scripts/schemathesis-fixtures.ts), runs every
# check against GET /openapi.json with the development credentials (scripts/schemathesis.toml), stops the
# server. Exit status is schemathesis's (non-zero on any 5xx, schema or conformance failure).
#   SCHEMATHESIS_MAX_EXAMPLES  examples per operation (default 50)
#   SCHEMATHESIS_PYTHON        Python used to build the venv (default python3, >= 3.10)
#   SCHEMATHESIS_SERVER_LOG    copy the local server's log there when the run ends
# The venv lives in .venv-schemathesis/ and is rebuilt when scripts/schemathesis-requirements.txt changes.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VENV="$ROOT/.venv-schemathesis"
REQS="$ROOT/scripts/schemathesis-requirements.txt"
PYTHON="${SCHEMATHESIS_PYTHON:-python3}"

PYTHON="$PYTHON" bash "$ROOT/scripts/python-venv.sh" "$VENV" "$REQS"

data="$(mktemp -d)"
log="$data/server.log"
cleanup() {
  [[ -n "${server:-}" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  [[ -n "${SCHEMATHESIS_SERVER_LOG:-}" ]] && cp "$log" "$SCHEMATHESIS_SERVER_LOG"
  rm -rf "$data"
}
trap cleanup EXIT

# A rate limit schemathesis cannot exhaust (outside production only), and the local adapters.
PORT=0 DATA_DIR="$data" AWS_ENDPOINT_URL='' RATE_LIMIT_PER_MINUTE=1000000 RATE_LIMIT_BURST=1000000 \
  node --import tsx "$ROOT/bin/local-server.ts" >"$log" 2>&1 &
server=$!
for _ in $(seq 1 300); do
  base="$(sed -n 's/.*listening on \(http:\/\/localhost:[0-9]*\).*/\1/p' "$log" | head -n 1)"
  [[ -n "$base" && -f "$data/credentials.json" ]] && break
  kill -0 "$server" 2>/dev/null || { cat "$log"; echo "local server exited" >&2; exit 1; }
  sleep 0.1
done
[[ -n "${base:-}" ]] || { cat "$log"; echo "local server did not start" >&2; exit 1; }
# The credentials and resource ids scripts/schemathesis.toml names (ST_...), exported for schemathesis.
"$ROOT/node_modules/.bin/tsx" "$ROOT/scripts/schemathesis-fixtures.ts" "$base" "$data" >"$data/fixtures.env" ||
  { cat "$log"; echo "could not make the fixtures" >&2; exit 1; }
set -a
# shellcheck disable=SC1091
source "$data/fixtures.env"
set +a

# The configuration beside the fixture dictionaries it names (relative paths resolve against its folder).
cp "$ROOT/scripts/schemathesis.toml" "$data/schemathesis.toml"
# The console's own origin, which the session routes require of a request that changes a session.
export ST_BASE_URL="$base"
# revokePortalSession and exchangePortalLink have no fixture yet (each revoke spends a session, each
# exchange a link; a generated link token names none, so every answer is a 410 or the login-CSRF 403):
# they are covered by the e2e tests (portal-sessions, openapi conformance) until one is made.
"$VENV/bin/st" --config-file "$data/schemathesis.toml" run "$base/openapi.json" \
  --url "$base" \
  --exclude-operation-id revokePortalSession \
  --exclude-operation-id exchangePortalLink \
  --checks all \
  --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-50}" \
  --seed "${SCHEMATHESIS_SEED:-1}" \
  "$@"
