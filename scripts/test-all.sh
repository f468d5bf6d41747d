#!/usr/bin/env bash
# `npm test`: every tier in one jest run — unit, contract (both adapters), cdk, integration
# (emulators), e2e (HTTP against the local server, on the local runtime and as the emulated AWS
# runtime: jest projects e2e and e2e-aws), browser, clients (both client libraries against the local
# server; the Python suite in .venv-clients/) — with the emulators started and stopped around it;
# then, on a full run, schemathesis over the served OpenAPI document (scripts/schemathesis.sh).
# Extra arguments go to jest (e.g. `npm test -- --selectProjects unit`) and skip the schemathesis run,
# as does SKIP_SCHEMATHESIS=1.
set -euo pipefail
cd "$(dirname "$0")/.."
# The applications the e2e-aws tier's servers run (both stages), synthesized and bundled once (or read
# from the cache).
node --import tsx bin/emulated-app.ts dev prod
bash scripts/with-emulators.sh node --experimental-vm-modules node_modules/jest/bin/jest.js "$@"
if [[ $# -eq 0 && "${SKIP_SCHEMATHESIS:-}" != 1 ]]; then
  bash scripts/schemathesis.sh
fi
