#!/usr/bin/env bash
# ctest entry for the TileLang programs: run.sh TILE_DOCTOR_BINARY TEST_NAME. Skips (77) when no
# interpreter with TileLang is there (scripts/setup-tilelang.sh makes one; CI runs it).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
python="${TILE_DOCTOR_PYTHON:-$here/../../.venv-tilelang/bin/python}"
if ! "$python" -c "import tilelang, numpy" 2>/dev/null; then
  echo "SKIP: no Python with TileLang at $python (run scripts/setup-tilelang.sh or set TILE_DOCTOR_PYTHON)"
  exit 77
fi
export TILE_DOCTOR_PYTHON="$python"
exec "$python" "$here/test_programs.py" "$1" "$2"
