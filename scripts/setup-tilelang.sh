#!/usr/bin/env bash
# Makes the virtual environment `tile-doctor check kernel.py` and its tests use: TileLang (pinned) from
# PyPI in .venv-tilelang (or $TILE_DOCTOR_VENV), jsonschema for the report-schema test and pytest, which
# tilelang.testing imports (scripts written like TileLang's own tests), with pytest-xdist (the pytest
# plugin's test runs `pytest -n 2`). Brings torch
# with it: about 5.7 GB, a few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${TILE_DOCTOR_VENV:-.venv-tilelang}
version=0.1.15   # the capture module and the templates a bundle compiles against follow this version
if [ -x "$venv/bin/python" ] &&
   "$venv/bin/python" -c "import sys, jsonschema, pytest, xdist, tilelang; sys.exit(tilelang.__version__ != '$version')" 2>/dev/null; then
  exit 0
fi
python=python3
if ! "$python" -m venv --help >/dev/null 2>&1 || ! "$python" -c "import ensurepip" 2>/dev/null; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-venv python3-pip
  python=/usr/bin/python3
fi
echo "installing TileLang $version into $venv"
"$python" -m venv "$venv"
# jsonschema: the report-schema test (tests/schema) validates reports with it.
"$venv/bin/pip" install --quiet --disable-pip-version-check "tilelang==$version" "jsonschema>=4.18" "pytest>=7" \
  "pytest-xdist>=3"
"$venv/bin/python" -c "import tilelang; print('TileLang', tilelang.__version__, 'in', '$venv')"
