#!/usr/bin/env bash
# Runs on the GPU machine (docs/gpu.md): one generated program of the kernel-generator campaign
# (tests/kernel_gen) again, on both executors side by side, to tell a GPU-only miss or finding from the
# campaign's harness. With MUTANT, that mutant (generate.py's --mutant index; the campaign plants
# SEED % the number of spots); PARAMS go to every check (e.g. --param B=64 to try another block).
#   OUT=DIR tests/gpu/rerun_seed.sh SEED [MUTANT] [CHECKS] [PARAMS...]
set -uo pipefail
source "$(dirname "$0")/unpack.sh"
td=/tmp/td/tile-doctor
seed=$1 mutant=${2:-} checks=${3:-all}
shift $(($# < 3 ? $# : 3))
dir="$out/seed-$seed${mutant:+-m$mutant}"
python3 tests/kernel_gen/generate.py "$seed" "$dir" ${mutant:+--mutant "$mutant"} > /dev/null || exit 1
kinds() { python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s@%s" % (f["kind"], (f.get("location") or {}).get("line")) for f in d.get("findings") or []) or "-")' "$1"; }
for executor in cpu cuda; do
  "$td" check "$dir/bundle.toml" --executor $executor --checks "$checks" --format json --out "$dir/$executor.json" \
    "$@" > "$dir/$executor.txt" 2>&1
  echo "$executor: exit $? findings $(kinds "$dir/$executor.json")"
done
