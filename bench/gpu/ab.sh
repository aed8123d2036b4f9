#!/usr/bin/env bash
# A change against its base on the GPU machine, in one call (docs/gpu.md): the static builds carried as
# .carry/tile-doctor-base.xz and .carry/tile-doctor.xz, each through run.sh with the families' configs
# (medians of ITERS), the reduction again in the other order (its 7 us launches drift with the machine's
# state), the reduction's executor notes (registers, blocks per SM), and the new build's whole process.
# Usage (run there): OUT=$OUT bench/gpu/ab.sh [ITERS] [CONFIGS]   logs go to $OUT/ab.txt
set -uo pipefail
source "$(dirname "$0")/../../tests/gpu/unpack.sh"
xz -dc .carry/tile-doctor-base.xz > /tmp/td/tile-doctor-base && chmod +x /tmp/td/tile-doctor-base
iters=${1:-20}
configs=${2:-numerics,launch;sync,launch;race,sync,launch;all}
{
  for b in tile-doctor-base tile-doctor; do
    echo "## $b"
    SANITIZER=0 CONFIGS="$configs" bench/gpu/run.sh /tmp/td/$b "$iters"
  done
  for b in tile-doctor tile-doctor-base; do
    echo "## $b, the reduction again"
    SANITIZER=0 CONFIGS="$configs" ONLY=reduce bench/gpu/run.sh /tmp/td/$b "$iters"
  done
  for b in tile-doctor-base tile-doctor; do
    for c in numerics,launch all; do
      echo "## $b, the reduction's notes under --checks $c"
      /tmp/td/$b check tests/bundles/reduce/bundle.toml --executor cuda --checks $c --param N=1048576 | grep -i "device\|register"
    done
  done
  echo "## tile-doctor, whole process"
  bench/gpu/whole_process.sh /tmp/td/tile-doctor 5
} 2>&1 | tee "$out/ab.txt"
