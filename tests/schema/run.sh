#!/usr/bin/env bash
# ctest entry: run.sh TILE_DOCTOR_BINARY. Validates reports with the TileLang environment's Python (which
# scripts/setup-tilelang.sh gives jsonschema); skips (77) when no Python here has jsonschema.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
for python in "${TILE_DOCTOR_PYTHON:-}" "$here/../../.venv-tilelang/bin/python" python3; do
  if [ -n "$python" ] && "$python" -c "import jsonschema" 2>/dev/null; then
    exec "$python" "$here/validate_reports.py" "$1"
  fi
done
echo "SKIP: no Python with jsonschema (run scripts/setup-tilelang.sh)"
exit 77
