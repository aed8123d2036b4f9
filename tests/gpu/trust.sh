#!/usr/bin/env bash
# Runs on the GPU machine (docs/gpu.md): the trust checks of issue 30 with the carried static binary. Same-value
# writes under real concurrency (a layernorm's 256 threads storing one mean, 4096 rows; TileLang's naive GEMV
# staging), each clean and its different-value twin a race; the split shared statistics, the SDK semantics;
# then the parity suite and the race family's cost beside the uninstrumented launch. Logs go to $OUT.
set -uo pipefail
source "$(dirname "$0")/unpack.sh"
td=/tmp/td/tile-doctor
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/trust.txt"
summary() { grep -E "ERROR|WARNING|note: set aside|SUMMARY|no findings" | cut -c1-260; }
for m in layernorm layernorm_different_value gemv gemv_different_value; do
  for params in "" "--param R=4096 --param D=1024" ; do
    [ -n "$params" ] && [[ $m != layernorm* ]] && continue
    for run in 1 2 3 4 5 6 7 8; do
      echo "== $m $params run $run" >> "$out/trust.txt"
      $td check tests/bundles/same_value/$m.toml --executor cuda $params 2>&1 | summary >> "$out/trust.txt"
      echo "exit ${PIPESTATUS[0]}" >> "$out/trust.txt"
    done
  done
done
for m in split_shared/row_softmax split_shared/row_layernorm split_shared/row_softmax_no_barrier \
         sdk_semantics/sdk_semantics sdk_semantics/sdk_semantics_cuda numerics/decay numerics/decay_half_sum; do
  echo "== $m" >> "$out/trust.txt"
  $td check tests/bundles/$m.toml --executor cuda 2>&1 | summary >> "$out/trust.txt"
done
for run in 1 2 3; do  # a lost update: every lane of a warp stores the same c + 1, the race is the read's
  $td check tests/bundles/global_races/bundle_plain_counter.toml --executor cuda 2>&1 | summary >> "$out/trust.txt"
done
PYTHONUNBUFFERED=1 python3 tests/gpu/parity.py $td > "$out/parity.txt" 2>&1
nvcc -O2 -arch=sm_90 -o /tmp/nvcc_gemm bench/gpu/nvcc_gemm.cu && nvcc -O2 -arch=sm_90 -o /tmp/nvcc_reduce bench/gpu/nvcc_reduce.cu
ms() { python3 -c 'import json,sys; print("%.4f" % json.load(sys.stdin)["timing"]["kernel_ms_median"])'; }
{
  for n in 256 1024; do
    echo "gemm $n native $(/tmp/nvcc_gemm $n 20 | grep -o 'ms/iter=[0-9.]*')"
    for c in launch race,launch all; do
      echo "gemm $n $c $($td check examples/gemm/bundle.toml --executor cuda --checks $c --timing-launches 20 --format json --param M=$n --param N=$n --param K=$n | ms)"
    done
  done
  echo "reduce 1M native $(/tmp/nvcc_reduce 1048576 20 | grep -o 'ms/iter=[0-9.]*')"
  for c in launch race,launch all; do
    echo "reduce 1M $c $($td check tests/bundles/reduce/bundle.toml --executor cuda --checks $c --timing-launches 20 --format json --param N=1048576 | ms)"
  done
} > "$out/bench.txt" 2>&1
tail -5 "$out/parity.txt"
cat "$out/bench.txt"
