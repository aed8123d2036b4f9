#!/usr/bin/env bash
# Configures and builds tile-doctor (and its tests) in build/.
set -euo pipefail
cd "$(dirname "$0")/.."
# A configure from before clang-19 was installed may have cached another clang's config: start it over.
if [ -f build/CMakeCache.txt ] && grep -q '^Clang_DIR:PATH=' build/CMakeCache.txt &&
   ! grep -q '^Clang_DIR:PATH=.*llvm-19' build/CMakeCache.txt; then
  rm -f build/CMakeCache.txt
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j "$(nproc)"
