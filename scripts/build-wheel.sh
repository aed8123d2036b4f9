#!/usr/bin/env bash
# Builds the self-contained wheel (docs/guide-python.md, "The self-contained wheel") into dist/: the Python
# package of python/ with the statically linked executable, clang's resource headers, the target profiles and
# the capture package inside tile_doctor/_bundled/, and a `tile-doctor` command. Its manylinux tag is the
# newest glibc symbol version the executable needs. Then checks it: a fresh virtual environment installs
# the wheel and runs the main job (examples/gemm_edge_bug on metax-c500: exit 1, its out-of-bounds finding)
# with the build's own sources, profiles and clang headers hidden, so only what the wheel carries is used.
#   scripts/build-wheel.sh [--no-check]      (builds build-static/ first when its executable is missing)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
check=1
[ "${1:-}" = "--no-check" ] && check=0

./scripts/install-deps.sh
if [ ! -x build-static/tile-doctor ]; then
  cmake -S . -B build-static -G Ninja -DCMAKE_BUILD_TYPE=Release -DTD_STATIC_LLVM=ON -DTD_BUILD_TESTS=OFF >/dev/null
fi
ninja -C build-static tile-doctor >/dev/null
exe=build-static/tile-doctor
needed=$(objdump -p "$exe" | awk '/NEEDED/ {print $2}' | sort | tr '\n' ' ')
for lib in $needed; do  # a wheel may rely on the C runtime only (PEP 600)
  case "$lib" in libc.so.6|libm.so.6|libpthread.so.0|libdl.so.2|librt.so.1|ld-linux-x86-64.so.2) ;;
    *) echo "build-wheel: $exe needs $lib, which a manylinux wheel cannot rely on" >&2; exit 1 ;;
  esac
done
glibc=$(objdump -T "$exe" | grep -o 'GLIBC_2\.[0-9]*' | sort -t. -k2 -n -u | tail -1)
tag="manylinux_2_${glibc#GLIBC_2.}_x86_64"

work=$(mktemp -d /tmp/tile-doctor-wheel-XXXXXX)
trap 'rm -rf "$work"' EXIT
stage=$work/stage
cp -r python "$stage"
find "$stage" -name __pycache__ -prune -exec rm -rf {} +
bundled=$stage/tile_doctor/_bundled
mkdir -p "$bundled/clang-resource" "$bundled/python"
cp "$exe" "$bundled/tile-doctor"
strip "$bundled/tile-doctor" 2>/dev/null || true
cp -r "$(llvm-config-19 --libdir)/clang/19/include" "$bundled/clang-resource/include"
cp -r profiles "$bundled/profiles"
cp -r python/tile_doctor_capture "$bundled/python/tile_doctor_capture"  # the executable puts it on PYTHONPATH
find "$bundled" -name __pycache__ -prune -exec rm -rf {} +
# Only the wheel carries data and the command: `pip install ./python` stays the package alone.
cat >> "$stage/pyproject.toml" <<'EOF'

[project.scripts]
tile-doctor = "tile_doctor.__main__:main"

[tool.setuptools.package-data]
tile_doctor = ["_bundled/tile-doctor", "_bundled/**/*"]
EOF

python3 -m venv "$work/build-env"
"$work/build-env/bin/pip" install -q setuptools wheel
"$work/build-env/bin/pip" wheel -q --no-deps --no-build-isolation -w "$work/plain" "$stage"
plain=$(ls "$work"/plain/*.whl)
"$work/build-env/bin/python" -m wheel tags --remove --python-tag py3 --abi-tag none --platform-tag "$tag" "$plain" >/dev/null
mkdir -p dist
rm -f dist/tile_doctor-*.whl
mv "$work"/plain/*-"$tag".whl dist/
wheel=$(ls dist/tile_doctor-*-"$tag".whl)
echo "built $wheel: $(du -m "$wheel" | cut -f1) MB ($(unzip -l "$wheel" | tail -1 | awk '{printf "%d MB unpacked", $1/1048576}'))"
[ $check -eq 1 ] || exit 0

python3 -m venv "$work/fresh"
"$work/fresh/bin/pip" install -q "$wheel"
mkdir "$work/job"
cp -r examples/gemm_edge_bug "$work/job/"
# A mount namespace hides the checkout and Debian's LLVM: a file the wheel lacks is then not found.
set +e
out=$(unshare -r -m sh -c "mount -t tmpfs none '$root' && mount -t tmpfs none /usr/lib/llvm-19 &&
      cd '$work/job' && PATH='$work/fresh/bin':/usr/bin:/bin tile-doctor check gemm_edge_bug/bundle.toml --target metax-c500" 2>&1)
code=$?
set -e
echo "$out" | tail -5
if [ $code -ne 1 ] || ! echo "$out" | grep -q "out-of-bounds"; then
  echo "build-wheel: the wheel's main job exited $code (1 with an out-of-bounds finding expected)" >&2
  exit 1
fi
echo "checked: a fresh venv ran the main job from the wheel alone (exit 1, out-of-bounds found)"
