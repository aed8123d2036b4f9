#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/setup-tilelang.sh   # TileLang from PyPI, for the `check kernel.py` tests
./scripts/build.sh
ctest --test-dir build --output-on-failure -j 2
