#!/usr/bin/env bash
# Nsight Compute profile of tile-doctor's checked GEMM on the GPU (needs ncu): where the instrumented
# kernel's warps stall, per SASS instruction with its source line, for tuning the device runtime.
# Usage: bench/gpu/profile.sh TILE_DOCTOR_BINARY OUT_DIR [SIZE] [CHECKS]
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=$1 out=$2 n=${3:-256} checks=${4:-all}
mkdir -p "$out"
ncu --target-processes all --kernel-name regex:gemm --launch-count 1 --set full --import-source yes \
  -f -o "$out/gemm$n" "$bin" check examples/gemm/bundle.toml --executor cuda --checks "$checks" \
  --param M=$n --param N=$n --param K=$n > "$out/ncu-run.txt" 2>&1
ncu -i "$out/gemm$n.ncu-rep" --page details --print-details all > "$out/details.txt" 2>&1
ncu -i "$out/gemm$n.ncu-rep" --page source --csv --print-source sass > "$out/sass.csv" 2>&1
ls -la "$out"
