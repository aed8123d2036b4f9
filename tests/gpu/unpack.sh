# Sourced by the GPU scripts (run on the GPU machine, docs/gpu.md): goes to the repository root, unpacks the
# carried static binary and clang's headers into /tmp/td, points at the profiles; $out is where logs go.
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
out=${OUT:-/tmp/td-out}
mkdir -p /tmp/td "$out"
xz -dc .carry/tile-doctor.xz > /tmp/td/tile-doctor && chmod +x /tmp/td/tile-doctor
tar -xJf .carry/clang-resource.tar.xz -C /tmp/td
export TILE_DOCTOR_PROFILES=$PWD/profiles
