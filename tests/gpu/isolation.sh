#!/usr/bin/env bash
# Runs on the GPU machine (docs/gpu.md): containment compiled into the modules the GPU runs (issue 32).
#   OUT=DIR tests/gpu/isolation.sh measure CPU_FIRST SECONDS
#     a wild access on the GPU, the GPU benchmark with and without containment (bench/gpu/run.sh, quiet
#     machine), then the parity suite beside a CPU-executor hostile campaign on the other cores
#   OUT=DIR tests/gpu/isolation.sh campaign GPU_FIRST CPU_FIRST SECONDS
#     the hostile campaign (tests/kernel_gen/hostile.py) on the GPU beside one on the CPU executor
set -uo pipefail
source "$(dirname "$0")/unpack.sh"
td=/tmp/td/tile-doctor
phase=$1
cores=$(nproc)
hostile() {  # EXECUTOR FIRST_SEED JOBS SECONDS NAME
  python3 tests/kernel_gen/hostile.py --tool $td --executor "$1" --programs 1000000 --first-seed "$2" --jobs "$3" \
    --timeout 30 --budget-seconds "$4" --out "$out/$5" > "$out/$5.txt" 2>&1
}
if [ "$phase" = measure ]; then
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  for where in 0 4096 -4096 1099511627776; do
    $td check tests/bundles/hostile/bundle.toml --executor cuda --param WHERE=$where --format json --out "$out/wild_$where.json"
    echo "hostile WHERE=$where on the GPU: exit $? $(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(sorted({(f["kind"], (f.get("location") or {}).get("line")) for f in r["findings"]}))' "$out/wild_$where.json")"
  done
  bench/gpu/run.sh $td 20 2>&1 | tee "$out/bench.txt"
  PYTHONUNBUFFERED=1 python3 tests/gpu/parity.py $td > "$out/parity.txt" 2>&1 &
  hostile cpu "$2" $((cores - 4)) "$3" cpu
  wait
  tail -n 3 "$out/parity.txt"
else
  hostile cuda "$2" 6 "$4" gpu &
  hostile cpu "$3" $((cores - 6)) "$4" cpu
  wait
  tail -n 3 "$out/gpu.txt"
fi
tail -n 3 "$out/cpu.txt"
