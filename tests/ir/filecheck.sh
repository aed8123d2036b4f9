#!/usr/bin/env bash
# ctest entry for the IR tests (tests/ir/<family>/*.ll): filecheck.sh TILE_DOCTOR_BINARY FILE.ll
# Each "; RUN-CHECKS: LIST [PREFIX]" line of FILE instruments it with `tile-doctor instrument --passes-only
# --checks LIST` (the families' passes alone, every hook left a call to its declaration) and matches the
# module against FILE's PREFIX lines (CHECK when none) with LLVM's FileCheck. Skips (77) without FileCheck-19.
set -uo pipefail
tool=$1 file=$2
filecheck=$(command -v FileCheck-19 || echo /usr/lib/llvm-19/bin/FileCheck)
[ -x "$filecheck" ] || { echo "SKIP: no FileCheck-19 (Debian's llvm-19-tools)"; exit 77; }
runs=$(sed -n 's/^; RUN-CHECKS: //p' "$file")
[ -n "$runs" ] || { echo "$file: no '; RUN-CHECKS:' line"; exit 1; }
status=0
while read -r checks prefix; do
  prefix=${prefix:-CHECK}
  if ! "$tool" instrument "$file" -o - --passes-only --checks "$checks" 2>"${TMPDIR:-/tmp}/td-ir-$$.err" |
      "$filecheck" --check-prefix="$prefix" "$file"; then
    echo "FAILED: --checks $checks against the $prefix lines of $file"; cat "${TMPDIR:-/tmp}/td-ir-$$.err"; status=1
  fi
done <<< "$runs"
rm -f "${TMPDIR:-/tmp}/td-ir-$$.err"
exit $status
