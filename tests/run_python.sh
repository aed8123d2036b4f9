#!/usr/bin/env bash
# ctest entry for the Python tests that need a module the TileLang environment brings:
#   run_python.sh MODULE SCRIPT TILE_DOCTOR_BINARY
# Runs SCRIPT with the first Python here that imports MODULE ($TILE_DOCTOR_PYTHON, the TileLang
# environment's, python3); skips (77) when none does (scripts/setup-tilelang.sh makes that environment).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
module=$1 script=$2
shift 2
for python in "${TILE_DOCTOR_PYTHON:-}" "$here/../.venv-tilelang/bin/python" python3; do
  if [ -n "$python" ] && "$python" -c "import $module" 2>/dev/null; then
    exec "$python" "$script" "$@"
  fi
done
echo "SKIP: no Python with $module (run scripts/setup-tilelang.sh)"
exit 77
