#!/usr/bin/env python3
"""A campaign of hostile kernels through `tile-doctor check` on the CPU executor or the GPU (issue 32).

Each program is one kernel whose threads compute out[i] = 2i + 1 and, in some of them, make one planted
access through an address of a chosen class: near or far past the buffer, an absolute integer, a pointer
kept as an integer in a local or loaded from memory, an index past a local array, a stack address that
travelled through memory, a call through a forged function pointer, a printf of such memory, a call to a
host function. It runs under a random set of check families (none included). What must hold:
  - tile-doctor never dies by a signal, never hangs, never has an internal error, and its report parses;
  - every finding names the kernel's own source at a line it has, with a kind `tile-doctor rules` knows
    (never records-overwritten or kernel-crash: the kernel did not reach the checks' memory);
  - the planted access is reported at its line (wild-access, or the bounds family's finding for an address
    computed from the buffer), except where it may land in the kernel's own memory (a stack address of
    unknown origin, a printf);
  - `out` holds exactly 2i + 1 (no wild store landed in it) and nothing but the report and the outputs
    appeared in the run's folder;
  - a call to a host function is bad input (exit 2) naming the line.
On the GPU (--executor cuda) the same holds but where the GPU's hardware faults first, which is right there:
a printf of wild memory (the GPU's printf reads it itself) and a stack address that travelled through memory
(containment accepts any address of the local window, the hardware faults outside the thread's frame).

    hostile.py --tool build/tile-doctor --programs N [--first-seed S] [--jobs J] [--out DIR] [--budget-seconds T]
               [--executor cpu|cuda]
"""
import json
import os
import random
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import seeds  # noqa: E402

N = 128  # elements of out: one per thread of the grid (2 blocks of 64)
CLASSES = ["near", "far", "absolute", "int_local", "loaded", "local_overrun", "stack_through_memory",
           "forged_call", "printf", "host_call"]
FAMILY_SETS = ["launch", "race", "bounds", "init", "sync", "numerics", "race,init", "all"]


def make_program(seed):
    rng = random.Random(seed)
    cls = CLASSES[seed % len(CLASSES)] if rng.random() < 0.8 else rng.choice(CLASSES)
    access = rng.choice(["read", "write", "atomic"])
    who = rng.choice(["all", "one", "odd"])
    guard = {"all": "true", "one": f"gid == {rng.randrange(2 * 64)}", "odd": "gid % 2 == 1"}[who]
    value = {"read": "volatile float v = *p; (void)v;", "write": "*p = 7777.0f;", "atomic": "atomicAdd(p, 7777.0f);"}[access]
    pre, addr, post, expect = "", "", "", "reported"
    if cls == "near":
        k = rng.randrange(0, 16384)
        addr = f"out + {N} + {k}" if rng.random() < 0.5 else f"out - 1 - {k}"
    elif cls == "far":
        sign = rng.choice(["+", "-"])
        addr = f"(float*)((char*)out {sign} (1ll << {rng.randrange(20, 47)}))"
    elif cls == "absolute":
        a = rng.choice([0, 8, 4096, 0x10000, rng.randrange(1 << 47), (1 << 64) - 4096, rng.randrange(1 << 64)])
        # through a volatile slot: a constant null store is undefined behaviour the compiler deletes, branch and all
        pre = f"volatile unsigned long long slot = 0x{a:x}ull;"
        addr = "(float*)slot"
    elif cls == "int_local":
        pre = "unsigned long long bits = (unsigned long long)out; volatile unsigned long long slot = bits;"
        addr = f"(float*)(slot + {rng.choice([N * 4, -4, 1 << 20, -(1 << 24), 1 << 40])}ll)"
    elif cls == "loaded":  # an integer the kernel reads from its own buffer (zeros) plus an offset
        pre = "unsigned long long bits = *(volatile unsigned long long*)out;"
        addr = f"(float*)(bits + 0x{rng.randrange(1 << 47):x}ull)"
    elif cls == "local_overrun":
        # an index the compiler cannot see is out of range (it deletes a store it proves undefined), into an
        # array the kernel goes on to use (it deletes an array nothing reads)
        pre = (f"float loc[8]; for (int j = 0; j < 8; ++j) loc[j] = j * out[gid]; "
               f"volatile int off = 8 + gid % {rng.randrange(1, 64)};")
        addr = "loc + off"
        post = "out[gid] += loc[gid % 8] * 0.0f;"
    elif cls == "stack_through_memory":
        pre = "float loc[4] = {1, 2, 3, 4}; volatile unsigned long long slot = (unsigned long long)loc;"
        addr = f"(float*)(slot + {rng.choice([16, 4096, -4096, 1 << 16, -(1 << 16), 1 << 30])}ll)"
        expect = "optional"
    elif cls == "forged_call":
        pre = ("float (*f)(float) = kTable[gid % 2]; volatile unsigned long long slot = (unsigned long long)f;"
               f" f = (float (*)(float))(slot + {rng.choice([1, 64, 4096, -4096, 1 << 30])}ll);")
        addr, value = "", "volatile float v = f(1.0f); (void)v;"
    elif cls == "printf":
        addr, value, expect = "", f'printf("%s|%d\\n", (const char*)out + {rng.choice([-(1 << 20), 1 << 24, N * 4 + 64])}ll, gid);', "printed"
        guard = f"gid == {rng.randrange(128)}"
    elif cls == "host_call":
        addr, value, expect = "", 'getenv("HOME");', "bad input"
    body = (f"  if ({guard}) {{\n    {pre}\n" + (f"    float* p = {addr};\n" if addr else "") + f"    {value}\n"
            + (f"    {post}\n" if post else "") + "  }\n")
    planted_line = 11 + (1 if addr else 0)  # the statement after the guard (9), `pre` (10) and `p` (11)
    source = (f"#include <cstdio>\n{'#include <cstdlib>' if cls == 'host_call' else ''}\n"
              "__device__ float twice(float v) { return 2 * v; }\n"
              "__device__ float thrice(float v) { return 3 * v; }\n"
              "__device__ float (*const kTable[2])(float) = {twice, thrice};\n"
              "__global__ void k(float* out) {\n"
              "  int gid = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "  out[gid] = 2.0f * gid + 1.0f;\n"
              + body + "}\n")
    return {"seed": seed, "class": cls, "access": access, "who": who, "checks": rng.choice(FAMILY_SETS),
            "source": source, "line": planted_line, "expect": expect}


def write(prog, folder):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "k.cu"), "w") as f:
        f.write(prog["source"])
    with open(os.path.join(folder, "bundle.toml"), "w") as f:
        f.write('[kernel]\nsource = "k.cu"\nentry = "k"\n[launch]\ngrid = [2]\nblock = [64]\n'
                f'[[args]]\nname = "out"\ntype = "float*"\nshape = [{N}]\ninit = "zeros"\noutput = true\n')


def check_program(opts, seed):
    prog = make_program(seed)
    work = tempfile.mkdtemp(prefix=f"hostile{seed}-", dir=opts.scratch)
    src = os.path.join(work, "src")
    write(prog, src)
    run_dir = os.path.join(work, "run")
    os.makedirs(run_dir)
    cmd = [opts.tool, "check", os.path.join(src, "bundle.toml"), "--checks", prog["checks"], "--format", "json",
           "--out", "report.json", "--save-outputs", "outputs", "--jobs", "1", "--timeout", str(opts.timeout),
           "--executor", opts.executor]
    problems = []
    try:
        proc = subprocess.run(cmd, cwd=run_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              timeout=opts.timeout * 3 + 120)
        rc = proc.returncode
    except subprocess.TimeoutExpired:
        rc, proc = None, None
        problems.append("tile-doctor hung past its own --timeout")
    report = {}
    if rc is not None:
        if rc < 0 or rc > 6:
            problems.append(f"died by signal or odd exit {rc}: {proc.stderr[-300:]}")
        try:
            with open(os.path.join(run_dir, "report.json")) as f:
                report = json.load(f)
        except (OSError, ValueError) as e:
            problems.append(f"no report ({e}); stderr {proc.stderr[-300:]}")
    extra = set(os.listdir(run_dir)) - {"report.json", "outputs"}
    if extra:
        problems.append(f"files appeared beside the report: {sorted(extra)}")
    findings = report.get("findings") or []
    lines = prog["source"].count("\n")
    # The GPU's own fault (above), which ends the context: no outputs.
    hardware_faulted = opts.executor == "cuda" and prog["class"] in ("printf", "stack_through_memory") and any(
        f.get("kind") == "kernel-fault" for f in findings)
    for f in findings:
        loc = f.get("location") or {}
        if hardware_faulted and f.get("kind") == "kernel-fault":
            continue
        if f.get("kind") in ("records-overwritten", "kernel-crash", "kernel-fault") or f.get("kind") not in opts.rules:
            problems.append(f"finding {f.get('kind')}: {f.get('message', '')[:200]}")
        elif loc and (not loc.get("file", "").endswith("k.cu") or not 1 <= loc.get("line", 0) <= lines):
            problems.append(f"finding {f.get('kind')} at {loc}: not a place of the kernel")
    at_line = [f for f in findings if (f.get("location") or {}).get("line") == prog["line"]]
    if prog["expect"] == "bad input":
        if rc != 2 or f"k.cu:{prog['line']}" not in json.dumps(report):
            problems.append(f"a host call is not bad input at its line: exit {rc}, {json.dumps(report)[:300]}")
    elif rc == 4 or (rc is not None and rc not in (0, 1, 3)):
        problems.append(f"exit {rc}: {json.dumps(report)[:300]}")
    elif prog["expect"] == "reported" and not any(f["kind"] in ("wild-access", "global-out-of-bounds") for f in at_line):
        problems.append(f"planted {prog['class']} {prog['access']} at line {prog['line']} not reported (exit {rc}): "
                        + "; ".join(f"{f.get('kind')}@{(f.get('location') or {}).get('line')}" for f in findings[:4]))
    if prog["expect"] != "bad input" and rc in (0, 1, 3) and not hardware_faulted:
        try:
            out = np.load(os.path.join(run_dir, "outputs", "out.npy"))
            if not np.array_equal(out, 2.0 * np.arange(N, dtype=np.float32) + 1.0):
                problems.append(f"out changed: {np.flatnonzero(out != 2.0 * np.arange(N) + 1)[:8]}")
        except OSError as e:
            problems.append(f"no outputs: {e}")
    seeds.clean_up(opts.out, seed, work, problems)
    return prog, rc, problems


def main():
    parser = seeds.arguments(__doc__, "hostile-campaign")
    opts = parser.parse_args()
    opts.tool = os.path.abspath(opts.tool)
    os.makedirs(opts.out, exist_ok=True)
    opts.scratch = tempfile.mkdtemp(prefix="hostile-")
    rules = subprocess.run([opts.tool, "rules", "--format", "json"], capture_output=True, text=True).stdout
    opts.rules = {r["id"] for r in json.loads(rules)["rules"]}
    totals = {"programs": 0, "failed": 0, "by_class": {}, "exits": {}}
    def on_result(result):
        prog, rc, problems = result
        totals["programs"] += 1
        c = totals["by_class"].setdefault(prog["class"], {"programs": 0, "failed": 0})
        c["programs"] += 1
        totals["exits"][str(rc)] = totals["exits"].get(str(rc), 0) + 1
        if problems:
            totals["failed"] += 1
            c["failed"] += 1
            for p in problems:
                print(f"seed {prog['seed']} ({prog['class']} {prog['access']}, --checks {prog['checks']}): {p}",
                      flush=True)
        if totals["programs"] % 100 == 0:  # a run stopped early still says how far it got
            print(f"... {totals['programs']} programs, {totals['failed']} failed", flush=True)
            seeds.write_summary(opts.out, totals)

    seeds.run_campaign(opts, check_program, on_result, totals)
    print(f"hostile programs {totals['programs']} (seeds from {opts.first_seed}), failed {totals['failed']}, "
          f"{totals['seconds']} s; exits {totals['exits']}")
    print("by class: " + ", ".join(f"{k} {v['programs'] - v['failed']}/{v['programs']}" for k, v in sorted(totals["by_class"].items())))
    sys.exit(1 if totals["failed"] else 0)


if __name__ == "__main__":
    main()
