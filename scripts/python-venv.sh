#!/usr/bin/env bash
# Makes (or keeps) a Python venv holding exactly a requirements file: rebuilt when the file or the
# interpreter changes, left alone otherwise. Shared by the scripts that need Python tools.
#   scripts/python-venv.sh VENV_DIR REQUIREMENTS_FILE
#   PYTHON   the interpreter that builds the venv (default python3; needs >= 3.10 and the venv module)
set -euo pipefail
venv="$1"
requirements="$2"
python="${PYTHON:-python3}"

if ! "$python" -c 'import sys, venv, ensurepip; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null; then
  echo "python-venv: $python must be Python >= 3.10 with the venv module ('apt-get install python3-venv')," \
    "or set PYTHON to one that is" >&2
  exit 1
fi
# The interpreter's version is part of the stamp, so a Python upgrade rebuilds the venv.
want="$("$python" -c 'import hashlib, sys; h = hashlib.sha256(open(sys.argv[1], "rb").read()); h.update(sys.version.encode()); print(h.hexdigest())' "$requirements")"
if [[ "$(cat "$venv/.requirements.sha256" 2>/dev/null)" == "$want" ]] && "$venv/bin/python" -c '' 2>/dev/null; then
  exit 0
fi
echo "python-venv: installing $requirements into $venv (once)" >&2
rm -rf "$venv"
"$python" -m venv "$venv"
if ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$requirements"; then
  rm -rf "$venv"
  echo "python-venv: pip install -r $requirements failed (see above)" >&2
  exit 1
fi
# Written last: an interrupted install is redone next time.
echo "$want" >"$venv/.requirements.sha256"
