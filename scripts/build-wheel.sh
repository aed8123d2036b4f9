#!/usr/bin/env bash
# Builds the self-contained wheel (docs/guide-python.md, "The self-contained wheel") into dist/: the Python
# package of python/ with the statically linked executable, clang's resource headers, the target profiles and
# the capture package inside tile_doctor/_bundled/, and a `tile-doctor` command. Its manylinux tag is the
# newest glibc symbol version the executable needs. Then checks it: a fresh virtual environment installs
# the wheel and runs the main job (examples/gemm_edge_bug on metax-c500: exit 1, its out-of-bounds finding)
# and, where scripts/setup-tilelang.sh's environment exists, a TileLang script with that venv's Python, with
# the build's own profiles, capture package and clang headers hidden, so only what the wheel carries is used.
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
cp tests/tilelang/three_kernels.py "$work/job/"
# A mount namespace hides the build's profiles, capture package, executables and Debian's LLVM (clang's
# headers): a file the wheel lacks is then not found.
hidden="$root/profiles $root/python $root/build $root/build-static /usr/lib/llvm-19"
in_wheel_env() {  # in_wheel_env COMMAND: runs it in the job folder with the wheel's environment first on PATH
  unshare -r -m sh -c "for d in $hidden; do [ -d \$d ] && mount -t tmpfs none \$d; done;
    cd '$work/job' && PATH='$work/fresh/bin':/usr/bin:/bin $1" 2>&1
}
expect_finding() {  # expect_finding WHAT KIND OUTPUT CODE
  echo "$3" | tail -3
  if [ "$4" -ne 1 ] || ! echo "$3" | grep -q "$2"; then
    echo "build-wheel: $1 exited $4 (1 with $2 expected)" >&2
    exit 1
  fi
}
set +e
out=$(in_wheel_env "tile-doctor check gemm_edge_bug/bundle.toml --target metax-c500"); code=$?
set -e
expect_finding "the wheel's main job" out-of-bounds "$out" $code
echo "checked: a fresh venv ran the main job from the wheel alone (exit 1, out-of-bounds found)"
# With TileLang (scripts/setup-tilelang.sh's environment, added to the fresh one by a .pth file): a script.
if [ -x .venv-tilelang/bin/python ]; then
  site=$(.venv-tilelang/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  fresh_site=$("$work/fresh/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  echo "$site" > "$fresh_site/tilelang-environment.pth"
  set +e
  out=$(in_wheel_env "tile-doctor check three_kernels.py --checks bounds -- --buggy-bias"); code=$?
  set -e
  expect_finding "the wheel's check of a TileLang script" global-out-of-bounds "$out" $code
  echo "checked: the wheel's tile-doctor ran a TileLang script with the fresh venv's Python (exit 1, the write past Z)"
fi
