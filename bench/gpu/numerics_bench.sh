#!/usr/bin/env bash
# The numerics family's cost on the GPU, side by side in one run (needs an NVIDIA GPU and nvcc): the
# examples/gemm kernel at 256 and 1024 compiled by nvcc and run natively, and through tile-doctor's CUDA
# executor uninstrumented (--checks launch) and with the shadows (--checks numerics,launch); then each
# TileLang bundle folder given (captured and preprocessed here: tests/gpu/preprocess_bundle.py) through the
# CUDA executor both ways. Medians over ITERS timed launches.
# Usage: bench/gpu/numerics_bench.sh [TILE_DOCTOR_BINARY] [ITERS] [BUNDLE_DIR...]
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build/tile-doctor}
iters=${2:-20}
shift 2 2>/dev/null
nvcc -O2 -arch=sm_90 -lineinfo -o /tmp/nvcc_gemm bench/gpu/nvcc_gemm.cu || exit 1
echo "date: $(date -u +%F) gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
ms() { grep -o 'ms/iter=[0-9.]*' | cut -d= -f2; }
ratio() { python3 -c "print('%.2fx' % ($1 / $2))"; }
td_ms() { python3 -c 'import json,sys; print("%.4f" % json.load(sys.stdin)["timing"]["kernel_ms_median"])'; }
printf "%-22s %-36s %12s %10s %10s\n" kernel config ms/launch "vs native" "vs launch"
for n in 256 1024; do
  native=$(/tmp/nvcc_gemm $n $iters | ms)
  printf "%-22s %-36s %12s %10s %10s\n" "gemm $n" "nvcc native" "$native" "1.00x" ""
  base=""
  for checks in launch numerics,launch; do
    t=$($bin check examples/gemm/bundle.toml --executor cuda --checks $checks --timing-launches $iters --format json \
        --param M=$n --param N=$n --param K=$n | td_ms)
    [ -z "$base" ] && base=$t
    printf "%-22s %-36s %12s %10s %10s\n" "gemm $n" "tile-doctor cuda --checks $checks" "$t" "$(ratio $t $native)" "$(ratio $t $base)"
  done
done
for dir in "$@"; do
  base=""
  for checks in launch numerics,launch; do
    t=$($bin check "$dir/bundle.toml" --executor cuda --checks $checks --timing-launches $iters --format json | td_ms)
    [ -z "$base" ] && base=$t
    printf "%-22s %-36s %12s %10s %10s\n" "$(basename "$dir")" "tile-doctor cuda --checks $checks" "$t" "" "$(ratio $t $base)"
  done
done
