#!/usr/bin/env python3
"""Hopper TMA on the GPU (an H100/H200): kernels that take TMA descriptors, under --executor cuda.
- tests/bundles/tma_copy: the clean copy reports nothing and writes 2 * src; the unguarded one (80 columns)
  is found writing past `out`; the CPU executor refuses both by name (exit 6).
- TileLang scripts lowered for sm_90 (TMA copies, wgmma, warp specialisation): they run to their end with
  their own torch checks passing, and the report lists the launches.
Prints one line per case and a summary; exit 1 when one disagrees.
Usage: tests/gpu/hopper_tma.py TILE_DOCTOR_BINARY OUT_DIR  (TileLang in PYTHONPATH for the scripts)"""
import json, subprocess, sys, tempfile
from pathlib import Path

import numpy as np

root = Path(__file__).resolve().parents[2]
binary, out = sys.argv[1], Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
failures = []


def check(name, args, timeout=600):
    p = subprocess.run([binary, "check", "--format", "json", "--out", str(out / f"{name}.json"), *args],
                       capture_output=True, text=True, timeout=timeout)
    (out / f"{name}.log").write_text(p.stdout + p.stderr)
    try:
        report = json.loads((out / f"{name}.json").read_text())
    except (OSError, ValueError):
        report = {}
    return p.returncode, report


def expect(name, ok, detail):
    print(f"{name}: {'ok' if ok else 'DIFFERS'} — {detail}", flush=True)
    if not ok:
        failures.append(name)


bundles = root / "tests" / "bundles" / "tma_copy"
with tempfile.TemporaryDirectory() as saved:
    rc, r = check("tma_copy", [str(bundles / "bundle.toml"), "--executor", "cuda", "--save-outputs", saved])
    kinds = [f["kind"] for f in r.get("findings", [])]
    src = np.arange(64 * 96, dtype=np.float32).reshape(64, 96)
    try:
        got = np.load(Path(saved) / "out.npy")
        same = np.array_equal(got, 2 * src)
    except OSError:
        same = False
    expect("tma_copy (clean)", rc == 0 and not kinds and same,
           f"exit {rc}, findings {kinds}, out == 2 * src: {same}, unchecked: {r.get('unchecked')}")

rc, r = check("tma_copy_bug", [str(bundles / "bundle_bug.toml"), "--executor", "cuda"])
oob = [f for f in r.get("findings", []) if f["kind"] == "global-out-of-bounds" and f.get("buffer") == "out"]
expect("tma_copy_bug (unguarded edge)", rc == 1 and bool(oob),
       f"exit {rc}, {[(f['kind'], f.get('buffer'), f.get('count')) for f in r.get('findings', [])]}")

rc, r = check("tma_copy_cpu", [str(bundles / "bundle.toml"), "--executor", "cpu"])
expect("tma_copy on the CPU executor", rc == 6 and "TMA descriptor for src" in r.get("error", {}).get("message", ""),
       f"exit {rc}, {r.get('error', {}).get('message', '')[:120]}")

scripts = [("gemm_pipelined_sm90", "gemm_pipelined.py", []),
           ("gemm_tensorcore_sm90", "gemm_tensorcore.py", []),
           ("three_kernels_sm90", "three_kernels.py", []),
           ("three_kernels_bug_sm90", "three_kernels.py", ["--buggy-bias", "--m", "1"]),
           ("shifted_copy_bug_sm90", "shifted_copy_bug.py", [])]
for name, script, extra in scripts:
    rc, r = check(name, [str(root / "tests" / "tilelang" / script), "--executor", "cuda", "--tilelang-arch", "sm_90",
                         "--", *extra])
    launches = r.get("launches", [])
    findings = [(f["kind"], f.get("buffer")) for l in launches for f in (l.get("report") or {}).get("findings", [])]
    errors = [l["error"]["message"][:160] for l in launches if "error" in l]
    expected_bug = "bug" in name
    ok = (rc == 1 and findings) if expected_bug else (rc == 0 and not findings and not errors)
    expect(name, ok and r.get("script_exit", {}).get("code", 1) == 0,
           f"exit {rc}, script exit {r.get('script_exit')}, {len(launches)} launches, findings {findings[:4]}, "
           f"errors {errors[:2]}, unchecked {[u for l in launches for u in (l.get('report') or {}).get('unchecked', [])][:2]}")

print(f"\n{len(failures)} case(s) differ: {failures}" if failures else "\nall cases as expected")
sys.exit(1 if failures else 0)
