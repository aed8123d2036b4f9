#!/usr/bin/env bash
# The main job: install what is missing, build, and check the edge-guard example on the CPU executor
# (no GPU needed). It reports three out-of-bounds sites, so tile-doctor exits 1 (findings).
set -uo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh && ./scripts/build.sh || exit 4
./build/tile-doctor check examples/gemm_edge_bug/bundle.toml --target metax-c500
rc=$?
echo "tile-doctor exit code: $rc (0 no finding, 1 findings, 2 bad input, 3 kernel crashed or hung, 4 internal error, 6 the executor cannot run the kernel)"
[ "$rc" -eq 1 ]
