#!/usr/bin/env bash
# Runs on the GPU machine (docs/gpu.md): the generated-kernel campaign (tests/kernel_gen) with the carried
# static binary — a sample on the H200 through the CUDA executor (each family's instrumented launch against
# the uninstrumented one, bit for bit; mutants found) beside a CPU campaign over the machine's other cores.
#   OUT=DIR [PARITY=1] tests/gpu/kernel_gen.sh [GPU_PROGRAMS] [CPU_SECONDS] [FIRST_SEED]
# PARITY=1 runs the parity suite (tests/gpu/parity.py) beside them.
set -uo pipefail
source "$(dirname "$0")/unpack.sh"
td=/tmp/td/tile-doctor
gpu_programs=${1:-100} cpu_seconds=${2:-420} first=${3:-100000}
cores=$(nproc)
if [ "${PARITY:-0}" = 1 ]; then
  PYTHONUNBUFFERED=1 python3 tests/gpu/parity.py $td > "$out/parity.txt" 2>&1 &
fi
python3 tests/kernel_gen/campaign.py --tool $td --executor cuda --programs "$gpu_programs" --first-seed "$first" \
  --jobs 4 --budget-seconds "$cpu_seconds" --out "$out/gpu" > "$out/gpu.txt" 2>&1 &
python3 tests/kernel_gen/campaign.py --tool $td --programs 1000000 --first-seed $((first + 1000000)) \
  --jobs $((cores > 6 ? cores - 4 : 2)) --budget-seconds "$cpu_seconds" --out "$out/cpu" > "$out/cpu.txt" 2>&1
wait
tail -n 4 "$out/gpu.txt" "$out/cpu.txt"; [ -f "$out/parity.txt" ] && tail -n 3 "$out/parity.txt"; true
