#!/usr/bin/env python3
"""What `tile-doctor profile kernel.py` costs beyond running the script, against what checking it costs
(issue 18: the profiler's own overhead under 10% of the check's wall time). On a script with three kernels
(tests/tilelang/three_kernels.py), REPEATS interleaved rounds after one warm-up round (caches warm, as a user's
second run): `check` with all checks, `check --checks launch` (the same run, nothing instrumented), `profile`
(launch checks + the memory timeline + each launch's resources and occupancy), and `profile` with the PNG and
the memory_viz export; medians. The profiler's overhead is profile minus `check --checks launch`.
Usage: bench/profile_overhead_bench.py [--binary build/tile-doctor] [--repeats 5] [--script tests/tilelang/three_kernels.py]"""
import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

root = Path(__file__).resolve().parent.parent
ap = argparse.ArgumentParser()
ap.add_argument("--binary", default=str(root / "build" / "tile-doctor"))
ap.add_argument("--repeats", type=int, default=5)
ap.add_argument("--script", default=str(root / "tests/tilelang/three_kernels.py"))
args = ap.parse_args()

work = tempfile.mkdtemp(prefix="td-profile-bench-")
runs = {
    "check (all checks)": ["check", args.script],
    "check --checks launch": ["check", args.script, "--checks", "launch"],
    "profile": ["profile", args.script],
    "profile + PNG + memory_viz": ["profile", args.script, "--timeline-png", f"{work}/t.png", "--memory-viz", f"{work}/s.pickle"],
}


def timed(cmd):
    t0 = time.perf_counter()
    proc = subprocess.run([args.binary, *cmd], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{cmd}: exit {proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return time.perf_counter() - t0


for cmd in runs.values():  # warm-up: TileLang's lowering and the compiled kernels cached
    timed(cmd)
samples = {name: [] for name in runs}
for _ in range(args.repeats):
    for name, cmd in runs.items():
        samples[name].append(timed(cmd))
median = {name: statistics.median(s) for name, s in samples.items()}
check, bare = median["check (all checks)"], median["check --checks launch"]
print(f"{'run':>28} {'median s':>9} {'min s':>7} {'max s':>7}")
for name, s in samples.items():
    print(f"{name:>28} {median[name]:9.2f} {min(s):7.2f} {max(s):7.2f}")
for name in ("profile", "profile + PNG + memory_viz"):
    extra = median[name] - bare
    print(f"{name}: {extra:+.2f} s beyond the script's run = {extra / check * 100:.1f}% of the check's wall time")
