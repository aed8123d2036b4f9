#!/usr/bin/env bash
# On the GPU machine (docs/gpu.md), after tests/gpu/device_run.sh's unpacking (and, for the script part, a
# TileLang install into /tmp/site): `tile-doctor profile` with the launch timed on the GPU — the example GEMM
# for 200 launches and for 10 s of stability, NVML's clocks read — and a TileLang script's memory timeline on
# real CUDA tensors, exported from PyTorch's caching allocator. Reports to $OUT/profile/.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/gpu/tilelang_env.sh profile
bin=${1:-/tmp/td/tile-doctor}
gemm=examples/gemm/bundle.toml
"$bin" profile $gemm --executor cuda > "$out/gemm-200.txt" 2>&1; echo "gemm 200 launches: exit $?"
"$bin" profile $gemm --executor cuda --stability 10 --format json --out "$out/gemm-stability.json" \
  > "$out/gemm-stability.log" 2>&1; echo "gemm --stability 10: exit $?"
"$bin" profile $gemm --executor cuda --stability 10 > "$out/gemm-stability.txt" 2>&1; echo "gemm --stability 10 (text): exit $?"
nvidia-smi -q -d CLOCK,PERFORMANCE > "$out/nvidia-smi-clocks.txt" 2>&1
if python3 -c "import tilelang" 2>/dev/null; then
  "$bin" profile tests/tilelang/fused_intermediate.py --target nvidia-h200 --executor cuda --format json \
    --out "$out/fused.json" --memory-viz "$out/fused-allocator.pickle" > "$out/fused.log" 2>&1
  echo "fused_intermediate on the GPU: exit $?"
  python3 - "$out" <<'PY'
import json, pickle, sys
out = sys.argv[1]
r = json.load(open(f"{out}/fused.json"))
m = r["memory"]
print("peak", m["peak_bytes"], "largest at peak", m["alive_at_peak"][0]["where"], "memory_viz", m["memory_viz"])
s = pickle.load(open(f"{out}/fused-allocator.pickle", "rb"))
trace = [e for d in s["device_traces"] for e in d]
print("allocator trace entries", len(trace), "actions", sorted({e["action"] for e in trace}), "segments", len(s["segments"]))
for l in r["launches"]:
    t = l["profile"].get("timing", {})
    print("launch", l["launch"], l["profile"]["targets"][0]["target"], "timing", json.dumps(t.get("gpu", t))[:400])
PY
fi
for f in "$out"/gemm-200.txt "$out"/gemm-stability.txt; do echo "== $f"; sed -n '/^timing/,$p' "$f"; done
