#!/usr/bin/env bash
# Nsight Compute profile of a checked kernel on the GPU (needs ncu): where the instrumented kernel's warps
# stall, per SASS instruction with its source line, for tuning the device runtime. By default the
# examples/gemm bundle at SIZE; BUNDLE=path/bundle.toml KERNEL=regex profile another (its own shapes, or
# PARAMS="--param N=1048576").
# Usage: bench/gpu/profile.sh TILE_DOCTOR_BINARY OUT_DIR [SIZE] [CHECKS]
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=$1 out=$2 n=${3:-256} checks=${4:-all}
bundle=${BUNDLE:-examples/gemm/bundle.toml} kernel=${KERNEL:-gemm}
shapes=()
[ -z "${BUNDLE:-}" ] && shapes=(--param M=$n --param N=$n --param K=$n)
[ -n "${PARAMS:-}" ] && read -r -a shapes <<< "$PARAMS"
name=$(basename "$(dirname "$bundle")")-${checks//,/_}  # names the device tool carries back
mkdir -p "$out"
TILE_DOCTOR_DUMP_PTX="$out/$name.ptx" ncu --target-processes all --kernel-name "regex:$kernel" --launch-count 1 \
  --set full --import-source yes -f -o "$out/$name" "$bin" check "$bundle" --executor cuda --checks "$checks" \
  "${shapes[@]}" > "$out/$name-run.txt" 2>&1
ncu -i "$out/$name.ncu-rep" --page details --print-details all > "$out/$name-details.txt" 2>&1
ncu -i "$out/$name.ncu-rep" --page source --csv --print-source sass > "$out/$name-sass.csv" 2>&1
ls -la "$out"
