#!/usr/bin/env bash
# On the GPU machine (docs/gpu.md), after tests/gpu/device_run.sh's unpacking and a TileLang install into
# /tmp/site (../shared/device/README.md): `tile-doctor diff` on whole TileLang scripts with real CUDA
# tensors — the GPU against the CPU executor, and against fp64 — text and JSON reports to $OUT/diff/.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/gpu/tilelang_env.sh diff
bin=${1:-/tmp/td/tile-doctor}
run() {  # NAME SCRIPT AGAINST [ARGS...]
  name=$1 script=$2 against=$3; shift 3
  for format in text json; do
    timeout 300 "$bin" diff "tests/tilelang/$script" --executor cuda --against "$against" --format $format \
      --out "$out/$name.$format" -- "$@" > "$out/$name.$format.log" 2>&1
    rc=$?
  done
  echo "$name: exit $rc"
}
run gemm_half_vs_cpu gemm_accum_dtype.py cpu --accum float16
run gemm_half_vs_fp64 gemm_accum_dtype.py fp64 --accum float16
run gemm_float_vs_fp64 gemm_accum_dtype.py fp64
run softmax_vs_cpu softmax.py cpu
run three_kernels_vs_cpu three_kernels.py cpu
python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
for name in sorted(f[:-5] for f in os.listdir(out) if f.endswith(".json")):
    r = json.load(open(os.path.join(out, name + ".json")))
    print(name, "exit", r["exit_code"], "host_device", r["run"].get("host_device"))
    for l in r["launches"]:
        for o in l["outputs"]:
            t = o["rules"]["torch"]
            print(f"  launch {l['launch']} {o['name']}: max abs {o['max_abs_error']['abs_error']}, torch "
                  f"{'pass' if t['pass'] else 'FAIL'} ({t['mismatched']} of {o['elements']}), tilelang "
                  f"{'pass' if o['rules']['tilelang']['pass'] else 'FAIL'}" + (f" error {l['error']}" if "error" in l else ""))
PY
