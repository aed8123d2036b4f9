#!/usr/bin/env bash
# Runs on the GPU machine (see docs/gpu.md): unpacks the carried static binary and clang's headers, then
# runs a first check, the parity suite and the GPU benchmark; logs go to $OUT (or /tmp/td-out).
set -uo pipefail
source "$(dirname "$0")/unpack.sh"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
/tmp/td/tile-doctor check examples/gemm/bundle.toml --executor cuda; echo "first check exit: $?"
PYTHONUNBUFFERED=1 python3 tests/gpu/parity.py /tmp/td/tile-doctor 2>&1 | tee "$out/parity.txt"
bench/gpu/run.sh /tmp/td/tile-doctor 20 2>&1 | tee "$out/bench.txt"
