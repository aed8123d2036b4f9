#!/usr/bin/env bash
# On the GPU machine: runs the captured TileLang kernels (preprocessed by preprocess_bundle.py, carried as
# .carry/tl-bundles.tar.xz) with --executor cuda; reports and outputs go to $OUT/tilelang/ to be compared
# with the CPU executor's outputs on the development machine (tests/gpu/compare_outputs.py).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/td-out}/tilelang
mkdir -p "$out" /tmp/td-tl
tar -xJf .carry/tl-bundles.tar.xz -C /tmp/td-tl
for b in /tmp/td-tl/*/bundle.toml; do
  name=$(basename "$(dirname "$b")")
  /tmp/td/tile-doctor check "$b" --executor cuda --save-outputs "$out/$name" --format json --out "$out/$name.json"
  echo "$name: exit $?"
  python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('  ', r['executor'], r['device'], len(r['findings']), 'findings')" "$out/$name.json"
done
