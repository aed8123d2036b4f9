#!/usr/bin/env bash
# ctest Python.package_installs_and_runs_the_executable: `pip install ./python` into a fresh virtual
# environment (its wheel built offline where a setuptools that builds wheels is at hand); the package finds
# the executable through $TILE_DOCTOR_BIN and through PATH, says where it looked when neither has one, and
# `python -m tile_doctor check` runs a real check (examples/gemm_edge_bug: exit 1, its out-of-bounds finding named).
#   package_test.sh TILE_DOCTOR_BINARY
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
bin=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
if ! python3 -m venv "$work/venv" >/dev/null 2>&1; then echo "SKIP: python3 -m venv is not available"; exit 77; fi
py="$work/venv/bin/python"
# The wheel is built offline by an environment whose setuptools builds wheels itself (70.1 on; the TileLang
# environment's), else by pip's isolated build (which fetches setuptools).
builder=""
for candidate in "${TILE_DOCTOR_PYTHON:-}" "$root/.venv-tilelang/bin/python" python3; do
  if [ -n "$candidate" ] && "$candidate" -c "
import sys, setuptools
sys.exit(tuple(int(x) for x in setuptools.__version__.split('.')[:2]) < (70, 1))" 2>/dev/null; then
    builder=$candidate; break
  fi
done
if [ -n "$builder" ]; then
  "$builder" -m pip wheel --quiet --disable-pip-version-check --no-deps --no-build-isolation -w "$work/wheel" \
    "$root/python" >/dev/null || fail "building the wheel with $builder"
  "$py" -m pip install --quiet --disable-pip-version-check --no-index "$work"/wheel/*.whl || fail "pip install the wheel"
else
  "$py" -m pip install --quiet --disable-pip-version-check "$root/python" || fail "pip install ./python"
fi
rm -rf "$root/python/build" "$root/python"/*.egg-info  # what setuptools leaves beside the sources
cd "$work"  # away from the source tree: the installed package is the one imported
[ "$("$py" -c 'import tile_doctor, os; print(os.path.dirname(tile_doctor.__file__))')" != "$root/python/tile_doctor" ] ||
  fail "the source tree's package was imported, not the installed one"
found=$(TILE_DOCTOR_BIN="$bin" "$py" -c 'import tile_doctor; print(tile_doctor.find_executable())') || fail "find through TILE_DOCTOR_BIN"
[ "$found" = "$bin" ] || fail "TILE_DOCTOR_BIN gave $found, not $bin"
mkdir -p "$work/path" && ln -s "$bin" "$work/path/tile-doctor"
found=$(PATH="$work/path:$PATH" "$py" -c 'import tile_doctor; print(tile_doctor.find_executable())') || fail "find on PATH"
[ "$found" = "$work/path/tile-doctor" ] || fail "PATH gave $found"
out=$(PATH=/usr/bin:/bin "$py" -m tile_doctor check x 2>&1); code=$?
[ $code -eq 2 ] && [[ "$out" == *"TILE_DOCTOR_BIN"* ]] || fail "without an executable: exit $code, $out"
out=$(TILE_DOCTOR_BIN=/nonexistent "$py" -c 'import tile_doctor; tile_doctor.find_executable()' 2>&1) &&
  fail "a TILE_DOCTOR_BIN that is not there was accepted"
[[ "$out" == *"/nonexistent is not an executable"* ]] || fail "bad TILE_DOCTOR_BIN: $out"
out=$(TILE_DOCTOR_BIN="$bin" "$py" -m tile_doctor check "$root/examples/gemm_edge_bug/bundle.toml" --format json 2>&1); code=$?
[ $code -eq 1 ] || fail "python -m tile_doctor check: exit $code (1 expected): $out"
[[ "$out" == *'"global-out-of-bounds"'* ]] || fail "the finding is not in the report: $out"
code=$(TILE_DOCTOR_BIN="$bin" "$py" -c "
import tile_doctor, subprocess, sys
try:
    tile_doctor.run(['check', '$root/examples/gemm_edge_bug/bundle.toml', '--format', 'json', '--out', 'r.json'], check=True)
except subprocess.CalledProcessError as e:
    print(e.returncode)
")
[ "$code" = 1 ] && [ -s r.json ] || fail "tile_doctor.run(check=True) gave '$code'"
echo "PASS: pip install ./python; found through TILE_DOCTOR_BIN and PATH; python -m tile_doctor check exit 1 with its finding"
