#!/usr/bin/env bash
# Installs the Debian 12 packages tile-doctor builds with, when any is missing.
set -euo pipefail
# clang-19 ships clang 19's CMake config (ClangConfig.cmake); without it CMake would find another clang's.
pkgs=(cmake ninja-build g++ llvm-19-dev llvm-19-tools clang-19 libclang-19-dev libclang-common-19-dev libclang-cpp19-dev libcapstone-dev libsqlite3-dev libcli11-dev
      libfmt-dev libgtest-dev libtomlplusplus-dev nlohmann-json3-dev libboost-context-dev libzstd-dev zlib1g-dev
      libseccomp-dev libcairo2-dev pkg-config)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
