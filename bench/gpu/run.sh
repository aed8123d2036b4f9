#!/usr/bin/env bash
# GPU benchmark, side by side in one run (needs an NVIDIA GPU, nvcc and compute-sanitizer):
# the examples/gemm kernel at 256 and 1024 and the tests/bundles/reduce block reduction over 1M floats —
# each compiled by nvcc and run natively and under each compute-sanitizer tool (mean per launch over
# ITERS launches), and through tile-doctor's CUDA executor uninstrumented (--checks launch without
# containment, through the bench-only TILE_DOCTOR_BENCH_UNCONTAINED=1), with containment alone (--checks
# launch), with bounds checks, and with every family with and without containment (bounds, race, init,
# sync, numerics: median over ITERS launches, each from a zeroed race shadow).
# Usage: [SANITIZER=0] [CONFIGS="A;B;..."] [ONLY=reduce] bench/gpu/run.sh [TILE_DOCTOR_BINARY] [ITERS]
# ONLY runs just the kernels whose label ("gemm 256", "gemm 1024", "reduce 1M") starts with it.
# SANITIZER=0 leaves out compute-sanitizer (minutes of racecheck); CONFIGS lists tile-doctor's --checks
# values, "X uncontained" for the same without containment (default below; issue 34 adds each family alone).
# TILE_DOCTOR_BENCH_MAX_REGISTERS=N in the environment caps every checked kernel's registers per thread at N
# (a .maxnreg; 0: no cap) instead of the CUDA executor's own choice (runtime/cuda/capped_load.h).
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build/tile-doctor}
iters=${2:-20}
nvcc -O2 -arch=sm_90 -lineinfo -o /tmp/nvcc_gemm bench/gpu/nvcc_gemm.cu || exit 1
nvcc -O2 -arch=sm_90 -lineinfo -o /tmp/nvcc_reduce bench/gpu/nvcc_reduce.cu || exit 1
echo "date: $(date -u +%F) gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) $(compute-sanitizer --version | tail -1)"
ms() { grep -o 'ms/iter=[0-9.]*' | cut -d= -f2; }
ratio() { python3 -c "print('%.1fx' % ($1 / $2))"; }
td_ms() { python3 -c 'import json,sys; print("%.4f" % json.load(sys.stdin)["timing"]["kernel_ms_median"])'; }
printf "%-14s %-34s %12s %10s\n" kernel config ms/launch ratio
# side_by_side LABEL "NVCC_BINARY ARGS" BUNDLE "TILE_DOCTOR PARAMS"
side_by_side() {
  local label=$1 prog=$2 bundle=$3 params=$4
  [[ "$label" == "${ONLY:-}"* ]] || return 0
  native=$($prog $iters | ms)
  printf "%-14s %-34s %12s %10s\n" "$label" "nvcc native" "$native" "1.0x"
  for tool in $([ "${SANITIZER:-1}" = 0 ] || echo memcheck racecheck synccheck initcheck); do
    it=$iters; [ $tool = racecheck ] && it=2
    t=$(compute-sanitizer --tool $tool $prog $it 2>/dev/null | ms)
    printf "%-14s %-34s %12s %10s\n" "$label" "compute-sanitizer $tool" "$t" "$(ratio $t $native)"
  done
  local configs
  IFS=';' read -r -a configs <<< "${CONFIGS:-launch uncontained;launch;bounds,launch;all;all uncontained}"
  for config in "${configs[@]}"; do
    local checks=${config% uncontained} env=()
    [ "$checks" != "$config" ] && env=(TILE_DOCTOR_BENCH_UNCONTAINED=1)
    t=$(env "${env[@]}" $bin check $bundle --executor cuda --checks $checks --timing-launches $iters --format json $params | td_ms)
    printf "%-14s %-34s %12s %10s\n" "$label" "tile-doctor cuda --checks $config" "$t" "$(ratio $t $native)"
  done
}
for n in 256 1024; do
  side_by_side "gemm $n" "/tmp/nvcc_gemm $n" examples/gemm/bundle.toml "--param M=$n --param N=$n --param K=$n"
done
side_by_side "reduce 1M" "/tmp/nvcc_reduce 1048576" tests/bundles/reduce/bundle.toml "--param N=1048576"
