#!/usr/bin/env bash
# Configures and builds tile-doctor (and its tests) in build/ (or $TD_BUILD_DIR); arguments go to CMake.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${TD_BUILD_DIR:-build}
# A configure from before clang-19 was installed may have cached another clang's config: start it over.
if [ -f "$dir/CMakeCache.txt" ] && grep -q '^Clang_DIR:PATH=' "$dir/CMakeCache.txt" &&
   ! grep -q '^Clang_DIR:PATH=.*llvm-19' "$dir/CMakeCache.txt"; then
  rm -f "$dir/CMakeCache.txt"
fi
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$dir" -j "$(nproc)"
