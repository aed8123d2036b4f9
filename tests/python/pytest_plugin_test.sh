#!/usr/bin/env bash
# ctest Python.pytest_plugin_fails_the_test_with_the_bug: suite/test_scale_kernels.py, a test file written
# as TileLang projects write them (one correct kernel, one without a guard for its last block), run as it is
# under `pytest --tile-doctor=bounds`, then with -n 2 (pytest-xdist), -k and -x: the correct test passes,
# the unguarded one fails naming the out-of-bounds write of B, the TileLang line, the launch's line and the
# test's, and its own assert_close still ran (it passes on the checked outputs). --tile-doctor-sarif and
# --tile-doctor-junit, with and without workers, give one SARIF log and one JUnit file of the session: a run
# (a testsuite) per test, the out-of-bounds write a result (a failure) of the unguarded test's alone
# (session_reports_check.py).
#   pytest_plugin_test.sh TILE_DOCTOR_BINARY
set -uo pipefail
source "$(dirname "$0")/tilelang_python.sh" tilelang torch pytest xdist
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/suite/test_scale_kernels.py" "$work/"
fail() { echo "FAIL: $*"; exit 1; }
run() {  # run NAME PYTEST-ARGS...: the output in $work/NAME.txt
  local name=$1; shift
  (cd "$work" && TILE_DOCTOR_BIN="$bin" PYTHONPATH="$root/python" "$python" -m pytest -p tile_doctor.pytest_plugin \
     -p no:cacheprovider --tile-doctor=bounds -rf "$@" test_scale_kernels.py) > "$work/$name.txt" 2>&1
  echo "== pytest $* (exit $?)"; tail -n 4 "$work/$name.txt"
}
bin=$(realpath "$1")
run plain
grep -q "1 failed, 1 passed" "$work/plain.txt" || fail "plain: not one failed and one passed"
grep -q "FAILED test_scale_kernels.py::test_scale_tail_block" "$work/plain.txt" || fail "plain: the unguarded test did not fail"
grep -q "global-out-of-bounds .*from .*test_scale_kernels.py:21.*launched at test_scale_kernels.py:40: write of 4 bytes at B\[1000\]" \
  "$work/plain.txt" || fail "plain: the write of B[1000] is not named with the TileLang line 21 and the launch's line 40"
grep -q "in test test_scale_kernels.py::test_scale_tail_block (.*test_scale_kernels.py:36)" "$work/plain.txt" ||
  fail "plain: the test's own line is not named"
reports_as_expected() {  # reports_as_expected NAME: run NAME's SARIF log and JUnit file
  "$python" "$here/session_reports_check.py" "$work/$1.sarif" "$work/$1.xml" ||
    fail "$1: the session's SARIF log or JUnit file is not as expected"
}
run reports --tile-doctor-sarif "$work/reports.sarif" --tile-doctor-junit "$work/reports.xml" --tile-doctor-reports "$work/json"
grep -q "1 failed, 1 passed" "$work/reports.txt" || fail "reports: not one failed and one passed"
[ "$(ls "$work"/json/*test_scale_tail_block-*.json "$work"/json/*test_scale_matches_torch_1000-*.json | wc -l)" -eq 2 ] ||
  fail "--tile-doctor-reports: not one JSON report per test"
grep -q '"global-out-of-bounds"' "$work"/json/*test_scale_tail_block-*.json || fail "--tile-doctor-reports: the finding is not in the test's report"
reports_as_expected reports
run workers -n 2 --tile-doctor-sarif "$work/workers.sarif" --tile-doctor-junit "$work/workers.xml"
grep -q "1 failed, 1 passed" "$work/workers.txt" || fail "-n 2: not one failed and one passed"
grep -q "global-out-of-bounds" "$work/workers.txt" || fail "-n 2: the finding is not in the failure"
reports_as_expected workers
run selected -k matches_torch
grep -q "1 passed, 1 deselected" "$work/selected.txt" || fail "-k: the correct test alone did not pass"
run first_failure -x
grep -q "1 failed, 1 passed" "$work/first_failure.txt" || fail "-x: not one failed and one passed"
echo PASS
