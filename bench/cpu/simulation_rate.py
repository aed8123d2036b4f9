#!/usr/bin/env python3
"""The CPU executor's simulation speed on one core against the same kernel compiled natively for the host
(bench/cpu/native_gemm.cpp: the GEMM of examples/gemm as a loop over threads, split at its barriers).
For each size: the median kernel seconds of `tile-doctor check --checks launch` without containment
(TILE_DOCTOR_BENCH_UNCONTAINED=1, --jobs 1: one worker, one core) and with every check, and the native
loop's, side by side in one run; with --warp-instructions (the GPU's executed warp instructions of one
launch, e.g. from `ncu --metrics smsp__inst_executed.sum`) also warp-instructions per second per core.
Usage: bench/cpu/simulation_rate.py [--binary build/tile-doctor] [--sizes 512,1024] [--repeats 5]
                                    [--warp-instructions 512=N,1024=M]"""
import argparse, json, os, statistics, subprocess, tempfile
from pathlib import Path

root = Path(__file__).resolve().parents[2]
ap = argparse.ArgumentParser()
ap.add_argument("--binary", default=str(root / "build" / "tile-doctor"))
ap.add_argument("--sizes", default="512,1024")
ap.add_argument("--repeats", type=int, default=5)
ap.add_argument("--warp-instructions", default="")
args = ap.parse_args()
warp = {int(k): float(v) for k, v in (p.split("=") for p in args.warp_instructions.split(",") if p)}

native = Path(tempfile.mkdtemp()) / "native_gemm"
subprocess.run(["clang++-19", "-O2", "-march=native", "-o", str(native), str(root / "bench/cpu/native_gemm.cpp")], check=True)


def simulated(n, checks, uncontained):
    env = dict(os.environ, TILE_DOCTOR_BENCH_UNCONTAINED="1") if uncontained else None
    cmd = [args.binary, "check", str(root / "examples/gemm/bundle.toml"), "--format", "json", "--checks", checks,
           "--jobs", "1"] + [f"--param={p}={n}" for p in "MNK"]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {out.returncode}:\n{out.stdout}{out.stderr}")
    return json.loads(out.stdout)["timing"]["run_seconds"]


print(f"{'size':>6} {'run':>26} {'seconds':>9} {'vs native':>10} {'warp-instr/s/core':>18}")
for n in [int(s) for s in args.sizes.split(",")]:
    t = {"native loop over threads": [], "simulated, no checks": [], "simulated, all checks": []}
    for _ in range(args.repeats):
        out = subprocess.run([str(native), str(n), "1"], capture_output=True, text=True, check=True).stdout
        t["native loop over threads"].append(float(out.split()[0].split("=")[1]))
        t["simulated, no checks"].append(simulated(n, "launch", True))
        t["simulated, all checks"].append(simulated(n, "all", False))
    base = statistics.median(t["native loop over threads"])
    for name, v in t.items():
        s = statistics.median(v)
        rate = f"{warp[n] / s:.3g}" if n in warp else "-"
        print(f"{n:>6} {name:>26} {s:>9.4f} {s / base:>9.2f}x {rate:>18}")
