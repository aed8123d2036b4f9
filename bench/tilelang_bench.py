#!/usr/bin/env python3
"""Where the time of `tile-doctor check kernel.py` goes, for the TileLang programs of tests/tilelang, and
what the checks cost on them: per program, REPEATS interleaved runs of the whole command with
--checks launch (uninstrumented), --checks bounds,launch, --checks all and --checks numerics,launch; medians of the wall time, of the capture
(TileLang import + lowering in the Python child: wall minus what the report accounts for), of compile +
instrument, and of the kernel run, with the run ratio checked / uninstrumented.
Usage: bench/tilelang_bench.py [--binary build/tile-doctor] [--repeats 3] [--programs a.py,b.py] [--configs ...]
       [--script-args "..."]"""
import argparse
import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

root = Path(__file__).resolve().parent.parent
ap = argparse.ArgumentParser()
ap.add_argument("--binary", default=str(root / "build" / "tile-doctor"))
ap.add_argument("--repeats", type=int, default=3)
ap.add_argument("--programs", default="gemm_tensorcore.py,gemm_pipelined.py,softmax.py,flash_attention_fwd.py")
ap.add_argument("--configs", default="uninstrumented,bounds,all checks",
                help="which of: uninstrumented, bounds, all checks, numerics (comma-separated)")
ap.add_argument("--script-args", default="", help="arguments for every program (after --)")
args = ap.parse_args()

every = {"uninstrumented": "launch", "bounds": "bounds,launch", "all checks": "all", "numerics": "numerics,launch"}
configs = {"uninstrumented": "launch", **{name: every[name] for name in args.configs.split(",")}}
print(f"{'program':>24} {'config':>15} {'wall s':>7} {'capture s':>9} {'compile s':>9} {'run s':>7} {'run ratio':>9}")
for program in args.programs.split(","):
    samples = {c: {"wall": [], "capture": [], "compile": [], "run": []} for c in configs}
    for _ in range(args.repeats):
        for name, checks in configs.items():
            with tempfile.NamedTemporaryFile(suffix=".json") as report:
                cmd = [args.binary, "check", str(root / "tests/tilelang" / program), "--checks", checks,
                       "--format", "json", "--out", report.name]
                if args.script_args:
                    cmd += ["--", *args.script_args.split()]
                t0 = time.perf_counter()
                proc = subprocess.run(cmd, capture_output=True, text=True)
                wall = time.perf_counter() - t0
                if proc.returncode not in (0, 1):  # 1: findings (a planted bug's program)
                    raise SystemExit(f"{program}: exit {proc.returncode}\n{proc.stderr}")
                result = json.load(open(report.name))
                timing = (result["launches"] or result["kernels"])[0]["report"]["timing"]  # the first launch
            s = samples[name]
            s["wall"].append(wall)
            s["compile"].append(timing["compile_seconds"])
            s["run"].append(timing["run_seconds"])
            s["capture"].append(wall - timing["compile_seconds"] - timing["run_seconds"])
    base = statistics.median(samples["uninstrumented"]["run"])
    for name in configs:
        m = {k: statistics.median(v) for k, v in samples[name].items()}
        print(f"{program:>24} {name:>15} {m['wall']:7.2f} {m['capture']:9.2f} {m['compile']:9.2f} {m['run']:7.3f} "
              f"{m['run'] / base:8.2f}x")
