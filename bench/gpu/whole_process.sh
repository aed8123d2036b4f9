#!/usr/bin/env bash
# The whole process of one checked launch on the GPU (issue 34): wall seconds of `tile-doctor check` of the
# 1024 GEMM with --executor cuda, a first run on an empty cache then REPEATS more (medians), for
# --checks launch, bounds and all, beside the nvcc build's process launching the kernel once.
# Usage: bench/gpu/whole_process.sh [TILE_DOCTOR_BINARY] [REPEATS]   (needs nvcc; run.sh builds /tmp/nvcc_gemm)
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build/tile-doctor}
repeats=${2:-5}
[ -x /tmp/nvcc_gemm ] || nvcc -O2 -arch=sm_90 -lineinfo -o /tmp/nvcc_gemm bench/gpu/nvcc_gemm.cu || exit 1
seconds() { local s; s=$(date +%s.%N); "$@" >/dev/null 2>&1; python3 -c "import time; print('%.3f' % (time.time() - $s))"; }
median() { python3 -c 'import statistics,sys; print("%.3f" % statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }
printf "%-36s %10s %14s\n" "process" "first s" "median s (warm)"
runs=(); for _ in $(seq "$repeats"); do runs+=("$(seconds /tmp/nvcc_gemm 1024 1)"); done
printf "%-36s %10s %14s\n" "nvcc native, one launch" "-" "$(median "${runs[@]}")"
for checks in launch bounds,launch all; do
  cache=$(mktemp -d)
  first=$(XDG_CACHE_HOME=$cache seconds "$bin" check examples/gemm/bundle.toml --executor cuda --checks "$checks" \
          --param M=1024 --param N=1024 --param K=1024)
  runs=()
  for _ in $(seq "$repeats"); do
    runs+=("$(XDG_CACHE_HOME=$cache seconds "$bin" check examples/gemm/bundle.toml --executor cuda --checks "$checks" \
              --param M=1024 --param N=1024 --param K=1024)")
  done
  printf "%-36s %10s %14s\n" "tile-doctor check --checks $checks" "$first" "$(median "${runs[@]}")"
  rm -rf "$cache"
done
