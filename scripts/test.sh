#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/setup-tilelang.sh   # TileLang from PyPI, for the `check kernel.py` tests
./scripts/build.sh
ctest --test-dir build --output-on-failure -j 2
# Fuzzing as a habit: a bounded run of each front-end fuzzer mode on every test run (tests/fuzz).
fuzz_out=$(mktemp -d)
for mode in expr manifest ir; do
  n=$([ "$mode" = ir ] && echo 3000 || echo 30000)
  build/tests/td_fuzz "$mode" "$n" "${TD_FUZZ_SEED:-1}" "$fuzz_out/$mode"  # TD_FUZZ_SEED=$RANDOM for new inputs
done
rm -rf "$fuzz_out"
