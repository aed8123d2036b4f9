#!/usr/bin/env python3
"""First and repeated `tile-doctor check kernel.py` of one script, beside a bare `import tilelang, torch`
in the same interpreter, interleaved, REPEATS rounds; medians. What a check costs beyond the import is
what the caches (TileLang's lowering, clang's output) save on the repeated one; each round's first
check starts from an empty cache folder (issue 11, item 6: target a quarter). A third baseline adds the
module the script's own `torch.testing.assert_close` imports (`torch.distributed.tensor`, on its first call,
on a GPU as well): what the script costs with no checking at all, so the last ratio is tile-doctor's own.
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


BARE, OWN = "import tilelang, torch", "+ the script's own imports"
samples = {BARE: [], OWN: [], "first check": [], "repeated check": []}
for _ in range(args.repeats):
    samples[BARE].append(timed([python, "-c", "import tilelang, torch"]))
    samples[OWN].append(timed([python, "-c", "import tilelang, torch, torch.distributed.tensor"]))
    with tempfile.TemporaryDirectory(prefix="td-bench-cache-") as cache:  # the first check starts cold
        env = dict(os.environ, TILE_DOCTOR_CACHE=cache)
        samples["first check"].append(timed([args.binary, "check", args.script], env))
        samples["repeated check"].append(timed([args.binary, "check", args.script], env))
imp, own = (statistics.median(samples[k]) for k in (BARE, OWN))
print(f"{'run':>28} {'median s':>9} {'beyond import s':>16} {'beyond own s':>13}")
for name, s in samples.items():
    m = statistics.median(s)
    print(f"{name:>28} {m:9.2f} {m - imp:16.2f} {m - own:13.2f}")
first, again = (statistics.median(samples[k]) for k in ("first check", "repeated check"))
print(f"repeated / first, beyond the import: {(again - imp) / (first - imp):.2f}")
print(f"repeated / first, beyond the script's own imports: {(again - own) / (first - own):.2f}")
