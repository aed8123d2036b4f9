#!/usr/bin/env bash
# ctest entry: run.sh TILE_DOCTOR_BINARY. Runs with the TileLang environment's Python (NumPy comes with
# it); skips (77) when no Python here has NumPy.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
for python in "${TILE_DOCTOR_PYTHON:-}" "$here/../../.venv-tilelang/bin/python" python3; do
  if [ -n "$python" ] && "$python" -c "import numpy" 2>/dev/null; then
    exec "$python" "$here/numpy_agreement.py" "$1"
  fi
done
echo "SKIP: no Python with NumPy (run scripts/setup-tilelang.sh)"
exit 77
