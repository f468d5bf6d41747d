#!/usr/bin/env bash
# Run a command against local AWS emulators: scripts/with-emulators.sh <command...>
#
# - AWS_ENDPOINT_URL already set (e.g. LocalStack elsewhere): run the command against it, start nothing.
# - emulators already running (scripts/emulators.sh start): reuse them and leave them running.
# - otherwise: start moto server + DynamoDB Local, run the command, stop them again (also on failure/Ctrl-C).
# Exits with the command's exit code.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
EMULATORS_SH="$SCRIPT_DIR/emulators.sh"
ENV_FILE="$ROOT/.emulators/env"

if [[ $# -eq 0 ]]; then
  echo "usage: $0 <command...>" >&2
  exit 2
fi

if [[ -n "${AWS_ENDPOINT_URL:-}" ]]; then
  echo "emulators: AWS_ENDPOINT_URL is set, using the existing endpoint $AWS_ENDPOINT_URL" \
    "(DynamoDB: ${AWS_ENDPOINT_URL_DYNAMODB:-$AWS_ENDPOINT_URL}); not starting emulators" >&2
  exec "$@"
fi

started=0
# shellcheck disable=SC2317 # invoked by the EXIT trap
cleanup() {
  # A second signal while stopping (npm forwards SIGTERM to this script, and a group-wide SIGTERM
  # reaches it too) must not cut the stop short: ignored here and, inherited, by the stop script.
  trap '' INT TERM HUP
  if [[ "$started" == 1 ]]; then
    bash "$EMULATORS_SH" stop || true
  fi
}
trap cleanup EXIT
# Turn signals into a normal exit so the EXIT trap stops the emulators.
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

if bash "$EMULATORS_SH" status >/dev/null 2>&1 && [[ -f "$ENV_FILE" ]]; then
  reused=" (already running: reused, left running)"
else
  reused=""
  started=1
  bash "$EMULATORS_SH" start
fi

# shellcheck source=/dev/null
source "$ENV_FILE"
echo "emulators: using moto server at $AWS_ENDPOINT_URL and DynamoDB Local at $AWS_ENDPOINT_URL_DYNAMODB$reused" >&2

set +e
"$@"
rc=$?
set -e
exit "$rc"
