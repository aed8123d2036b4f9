#!/usr/bin/env bash
# GPU benchmark, side by side in one run (needs an NVIDIA GPU, nvcc and compute-sanitizer):
# the examples/gemm kernel at 256 and 1024 — compiled by nvcc and run natively and under each
# compute-sanitizer tool (mean per launch over ITERS launches), and through tile-doctor's CUDA executor
# uninstrumented (--checks launch) and with bounds checks (median over ITERS launches).
# Usage: bench/gpu/run.sh [TILE_DOCTOR_BINARY] [ITERS]
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build/tile-doctor}
iters=${2:-20}
nvcc -O2 -arch=sm_90 -lineinfo -o /tmp/nvcc_gemm bench/gpu/nvcc_gemm.cu || exit 1
echo "date: $(date -u +%F) gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) $(compute-sanitizer --version | tail -1)"
ms() { grep -o 'ms/iter=[0-9.]*' | cut -d= -f2; }
ratio() { python3 -c "print('%.1fx' % ($1 / $2))"; }
td_ms() { python3 -c 'import json,sys; print("%.4f" % json.load(sys.stdin)["timing"]["kernel_ms_median"])'; }
printf "%-6s %-34s %12s %10s\n" size config ms/launch ratio
for n in 256 1024; do
  native=$(/tmp/nvcc_gemm $n $iters | ms)
  printf "%-6s %-34s %12s %10s\n" $n "nvcc native" "$native" "1.0x"
  for tool in memcheck racecheck synccheck initcheck; do
    it=$iters; [ $tool = racecheck ] && it=2
    t=$(compute-sanitizer --tool $tool /tmp/nvcc_gemm $n $it 2>/dev/null | ms)
    printf "%-6s %-34s %12s %10s\n" $n "compute-sanitizer $tool" "$t" "$(ratio $t $native)"
  done
  for checks in launch bounds,launch; do
    t=$($bin check examples/gemm/bundle.toml --executor cuda --checks $checks --timing-launches $iters --format json \
        --param M=$n --param N=$n --param K=$n | td_ms)
    printf "%-6s %-34s %12s %10s\n" $n "tile-doctor cuda --checks $checks" "$t" "$(ratio $t $native)"
  done
done
