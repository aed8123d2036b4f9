# Sourced by the GPU machine's TileLang scripts (script_parity.sh, script_diff.sh), from the repository
# root: TileLang from /tmp/site (installed from wheels, ../shared/device/README.md), the capture module and
# profiles of this checkout, and $out = ${OUT:-/tmp/td-out}/$1 made.
out=${OUT:-/tmp/td-out}/$1
mkdir -p "$out"
export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH} TILE_DOCTOR_PYTHON=python3 TILE_DOCTOR_PYTHONPATH=$PWD/python
export TILE_DOCTOR_PROFILES=$PWD/profiles TILE_DOCTOR_CACHE=/tmp/td-cache
