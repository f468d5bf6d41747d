#!/usr/bin/env bash
# `npm test`: every tier in one jest run — unit, contract (both adapters), cdk, integration
# (emulators), e2e (HTTP against the local server) — with the emulators started and stopped around it.
# Extra arguments go to jest (e.g. `npm test -- --selectProjects unit`).
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/with-emulators.sh node --experimental-vm-modules node_modules/jest/bin/jest.js "$@"
