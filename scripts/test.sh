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
for mode in expr manifest ir wrapper; do
  n=$(case $mode in ir) echo 3000;; wrapper) echo 10000;; *) echo 30000;; esac)
  build/tests/td_fuzz "$mode" "$n" "${TD_FUZZ_SEED:-1}" "$fuzz_out/$mode"  # TD_FUZZ_SEED=$RANDOM for new inputs
done
rm -rf "$fuzz_out"
# ASan+UBSan on tile-doctor's own code (LLVM and clang as Debian built them): the unit and bundle tests,
# and a shorter fuzz run, in build-asan/. Leak checking is off: LLVM keeps global state to the end on purpose.
# ASan leaves the signals a crashing kernel or clang raises to tile-doctor, whose children must die by them
# (crash isolation is under test); memory errors are still caught by the shadow checks.
export ASAN_OPTIONS=detect_leaks=0:handle_segv=0:handle_sigbus=0:handle_abort=0:handle_sigill=0:handle_sigfpe=0 \
       UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
TD_BUILD_DIR=build-asan ./scripts/build.sh -DTD_SANITIZE=address,undefined
# A clang child once hung here for 120 s on a trivial kernel (BadInput.EntryNotFound, 1 of 6 runs, ASan build
# only; a fork from the sanitized process is the suspect, under investigation): a test gets a second try,
# and a flake still prints its failure above.
# EveryBundle (every bundle under the default checks, two minutes) and the generated-kernel campaign run in
# the plain build only.
ctest --test-dir build-asan --output-on-failure -j 2 -E '^(TileLang|Reports|EveryBundle|KernelGen)\.' --repeat until-pass:2
fuzz_out=$(mktemp -d)
for mode in expr manifest ir wrapper; do
  n=$([ "$mode" = ir ] && echo 300 || echo 3000)
  build-asan/tests/td_fuzz "$mode" "$n" "${TD_FUZZ_SEED:-1}" "$fuzz_out/$mode"
done
rm -rf "$fuzz_out"
