#!/usr/bin/env bash
# ctest Python.checking_finds_the_bug_from_a_plain_python_process: inprocess_program.py, run by plain `python`
# (the TileLang environment's, the package importable as it is once installed), checks a correct and a
# shifted copy with tile_doctor.checking(): the correct one clean and its own assert_close passing, the
# shifted one's out-of-bounds write of B found at the kernel's line and the launch's, and raised; then
# tile_doctor.check: a JITKernel compiled outside any block, launched once, gives the same finding at the
# check() call's line, and a correct PrimFunc is clean and returns its output.
#   inprocess_test.sh TILE_DOCTOR_BINARY
set -uo pipefail
source "$(dirname "$0")/tilelang_python.sh" tilelang torch
bin=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$(cd "$work" && TILE_DOCTOR_BIN="$bin" PYTHONPATH="$root/python" "$python" "$here/inprocess_program.py" 2>"$work/err")
rc=$?
echo "$out"
fail() { echo "FAIL: $*"; cat "$work/err"; exit 1; }
[ $rc -eq 0 ] || fail "the program exited $rc"
grep -qx "correct: launches=1 findings=0" <<<"$out" || fail "the correct copy was not clean"
grep -qx "shifted: launches=1 findings=1" <<<"$out" || fail "the shifted copy did not give one finding"
grep -q "^finding: global-out-of-bounds buffer=B python=.*inprocess_program.py:19,.*inprocess_program.py:30$" <<<"$out" ||
  fail "the finding does not name B, the kernel's line 19 and the launch's line 30"
grep -q "^raised: tile-doctor found 1 problem" <<<"$out" || fail "raise_for_findings did not raise"
grep -q "^check(JITKernel): launches=1 findings=1 python=.*inprocess_program.py:19,.*inprocess_program.py:57$" <<<"$out" ||
  fail "check() of a JITKernel compiled before did not find the write of B at the kernel's line 19 and the call's line 57"
grep -qx "check(PrimFunc): launches=1 findings=0 equal=True" <<<"$out" || fail "check() of the correct PrimFunc"
[ -z "$(ls /tmp | grep '^tile-doctor-checking-')" ] || echo "note: a tile-doctor-checking- folder is left in /tmp"
echo PASS
