#!/usr/bin/env python3
"""First and repeated `tile-doctor check kernel.py` of one script, beside a bare `import tilelang, torch`
in the same interpreter, interleaved, REPEATS rounds; medians. What a check costs beyond the import is
what the caches (TileLang's lowering, clang's output) save on the repeated one; each round's first
check starts from an empty cache folder (issue 11, item 6: target a quarter).
Usage: bench/script_repeat_bench.py [--binary build/tile-doctor] [--repeats 3] [--script tests/tilelang/gemm_tensorcore.py]"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

root = Path(__file__).resolve().parent.parent
ap = argparse.ArgumentParser()
ap.add_argument("--binary", default=str(root / "build" / "tile-doctor"))
ap.add_argument("--repeats", type=int, default=3)
ap.add_argument("--script", default=str(root / "tests/tilelang/gemm_tensorcore.py"))
args = ap.parse_args()
python = os.environ.get("TILE_DOCTOR_PYTHON", str(root / ".venv-tilelang/bin/python"))


def timed(cmd, env=None):
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise SystemExit(f"{cmd}: exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return time.perf_counter() - t0


samples = {"import tilelang, torch": [], "first check": [], "repeated check": []}
for _ in range(args.repeats):
    samples["import tilelang, torch"].append(timed([python, "-c", "import tilelang, torch"]))
    with tempfile.TemporaryDirectory(prefix="td-bench-cache-") as cache:  # the first check starts cold
        env = dict(os.environ, TILE_DOCTOR_CACHE=cache)
        samples["first check"].append(timed([args.binary, "check", args.script], env))
        samples["repeated check"].append(timed([args.binary, "check", args.script], env))
imp = statistics.median(samples["import tilelang, torch"])
print(f"{'run':>24} {'median s':>9} {'beyond import s':>16}")
for name, s in samples.items():
    m = statistics.median(s)
    print(f"{name:>24} {m:9.2f} {m - imp:16.2f}")
first, again = (statistics.median(samples[k]) - imp for k in ("first check", "repeated check"))
print(f"repeated / first, beyond the import: {again / first:.2f}")
