# Sourced by the tests that run Python with TileLang: sets $here, $root and $python (the TileLang
# environment's interpreter, or $TILE_DOCTOR_PYTHON), or skips (77) when it lacks a module of "$@".
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
python="${TILE_DOCTOR_PYTHON:-$root/.venv-tilelang/bin/python}"
if ! "$python" -c "import $(IFS=,; echo "$*")" 2>/dev/null; then
  echo "SKIP: no Python with $* at $python (run scripts/setup-tilelang.sh or set TILE_DOCTOR_PYTHON)"
  exit 77
fi
