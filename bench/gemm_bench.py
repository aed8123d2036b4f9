#!/usr/bin/env python3
"""Side-by-side cost of the bounds checks on the CPU executor, for the fp16 GEMM of examples/gemm.

For each size, runs `tile-doctor check` REPEATS times per configuration, interleaved, and prints medians of
the compile time, the kernel run time (uninstrumented: --checks launch without containment, through the
bench-only TILE_DOCTOR_BENCH_UNCONTAINED=1; contained: --checks launch, containment alone; bounds: --checks
bounds,launch; all checks: bounds, race, init and launch; numerics: the fp32/fp64 shadows),
their ratio, and the wall time of the whole command.
Usage: bench/gemm_bench.py [--binary build/tile-doctor] [--repeats 7] [--sizes 256,1024] [--configs ...]"""
import argparse, json, os, statistics, subprocess, time
from pathlib import Path

root = Path(__file__).resolve().parent.parent
ap = argparse.ArgumentParser()
ap.add_argument("--binary", default=str(root / "build" / "tile-doctor"))
ap.add_argument("--repeats", type=int, default=7)
ap.add_argument("--sizes", default="256")
ap.add_argument("--jobs", type=int, default=2)

ap.add_argument("--configs", default="uninstrumented,bounds,all checks",
                help="which of: uninstrumented, contained, bounds, all checks, all uncontained, race, "
                     "race uncontained, numerics, or any --checks value with its families joined by '+' "
                     "(comma-separated; configurations named ... uncontained and uninstrumented run without "
                     "containment, TILE_DOCTOR_BENCH_UNCONTAINED=1)")
args = ap.parse_args()

every = {"uninstrumented": "launch", "contained": "launch", "bounds": "bounds,launch", "all checks": "all",
         "all uncontained": "all", "race": "race,launch", "race uncontained": "race,launch",
         "numerics": "numerics,launch"}
uncontained = dict(os.environ, TILE_DOCTOR_BENCH_UNCONTAINED="1")
configs = {name: every.get(name, name.replace("+", ",")) for name in args.configs.split(",")}
if "uninstrumented" not in configs:
    configs = {"uninstrumented": "launch", **configs}
print(f"{'size':>6} {'config':>15} {'compile s':>10} {'run s':>9} {'wall s':>8} {'run ratio':>10}")
for size in [int(s) for s in args.sizes.split(",")]:
    samples = {c: {"compile": [], "run": [], "wall": []} for c in configs}
    for _ in range(args.repeats):
        for name, checks in configs.items():
            cmd = [args.binary, "check", str(root / "examples/gemm/bundle.toml"), "--format", "json", "--checks", checks,
                   "--jobs", str(args.jobs)] + [f"--param={p}={size}" for p in "MNK"]
            t0 = time.perf_counter()
            out = subprocess.run(cmd, capture_output=True, text=True,
                                 env=uncontained if name == "uninstrumented" or name.endswith("uncontained") else None)
            wall = time.perf_counter() - t0
            if out.returncode != 0:
                raise SystemExit(f"{' '.join(cmd)} exited {out.returncode}:\n{out.stdout}{out.stderr}")
            rep = json.loads(out.stdout)
            samples[name]["compile"].append(rep["timing"]["compile_seconds"])
            samples[name]["run"].append(rep["timing"]["run_seconds"])
            samples[name]["wall"].append(wall)
    base = statistics.median(samples["uninstrumented"]["run"])
    for name in configs:
        s = {k: statistics.median(v) for k, v in samples[name].items()}
        print(f"{size:>6} {name:>15} {s['compile']:>10.3f} {s['run']:>9.3f} {s['wall']:>8.3f} {s['run'] / base:>9.2f}x")
