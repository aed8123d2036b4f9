#!/usr/bin/env bash
# On the GPU machine (docs/gpu.md), after tests/gpu/device_run.sh's unpacking and a TileLang install into
# /tmp/site (../shared/device/README.md): the whole-script tests run with real CUDA tensors under
# --executor cuda and --executor cpu, JSON reports to $OUT/scripts/ (ONLY="NAME ..." runs those); and the pooled-allocator case under
# compute-sanitizer memcheck, with and without PyTorch's caching allocator.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/gpu/tilelang_env.sh scripts
python3 -c "import torch, tilelang; print('torch', torch.__version__, 'cuda', torch.cuda.is_available(), 'TileLang', tilelang.__version__)"
run() {  # NAME SCRIPT [ARGS...]; $ARCH: --tilelang-arch
  name=$1 script=$2; shift 2
  [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]] && return
  for ex in cuda cpu; do
    timeout 300 /tmp/td/tile-doctor check "tests/tilelang/$script" --executor "$ex" --tilelang-arch "${ARCH:-sm_80}" \
      --format json --out "$out/$name.$ex.json" -- "$@" > "$out/$name.$ex.log" 2>&1
    echo "$name --executor $ex: exit $?"
  done
}
run three_kernels three_kernels.py
run three_kernels_bug three_kernels.py --buggy-bias
run gemm_tensorcore gemm_tensorcore.py
run eager_rowsum eager_rowsum.py
run autotuned_gemm autotuned_gemm.py
run shifted_copy_bug shifted_copy_bug.py
run pooled_overrun pooled_overrun.py
run int8_gemm int8_gemm.py
run workspace_two_kernels workspace_two_kernels.py
run half_gemv half_gemv.py
run bf16_layernorm bf16_layernorm.py
ARCH=sm_89 run fp8_gemm fp8_gemm.py
run three_kernels_bug_one_row three_kernels.py --buggy-bias --m 1
run half_residual_scale half_residual_scale.py
run flat_view flat_view.py
run flat_view_bug flat_view.py --padded-view
run int4_dequant int4_dequant.py
python3 - "$out" <<'PY'
import json, sys, os
out = sys.argv[1]
def summary(path):
    r = json.load(open(path))
    rows = []
    for l in r.get("launches", []):
        fs = sorted((f["kind"], f.get("buffer", ""), tuple(f.get("coordinates", [])), f.get("count", 0))
                    for f in l["report"].get("findings", []))
        rows.append((l["launch"], l["checked"], l["report"].get("executor"), fs))
    return r["exit_code"], r["script_exit"]["code"], r.get("host_device"), rows
for name in sorted({f.split(".")[0] for f in os.listdir(out) if f.endswith(".json")}):
    cu, cp = (summary(os.path.join(out, f"{name}.{e}.json")) for e in ("cuda", "cpu"))
    same = cu[0] == cp[0] and cu[1] == cp[1] and [x[3] for x in cu[3]] == [x[3] for x in cp[3]]
    print(f"{name}: cuda exit {cu[0]} (script {cu[1]}, host_device {cu[2]}), cpu exit {cp[0]} (script {cp[1]}): "
          f"{'same findings' if same else 'DIFFERENT'}")
    for row in cu[3]:
        print("   cuda", row)
    if not same:
        for row in cp[3]:
            print("   cpu ", row)
PY
[ -n "${ONLY:-}" ] && exit 0
echo "== compute-sanitizer memcheck on pooled_overrun.py (PyTorch's caching allocator on)"
compute-sanitizer --tool memcheck python3 tests/tilelang/pooled_overrun.py 2>&1 | tail -4
echo "== the same with PYTORCH_NO_CUDA_MEMORY_CACHING=1"
PYTORCH_NO_CUDA_MEMORY_CACHING=1 compute-sanitizer --tool memcheck python3 tests/tilelang/pooled_overrun.py 2>&1 | grep -E "Invalid|ERROR SUMMARY" | head -4
