#!/usr/bin/env python3
"""Golden reports: `tile-doctor check` of a dozen bundles, in text and JSON, against the reports kept here
(tests/golden/NAME.txt, NAME.json). A change in what a report says, or how, shows as a diff; when it is
meant, `golden.py TOOL --update` writes the new reports for review in the commit. Every run uses one worker
thread (the CPU executor's order is then fixed); the repository's path is written <ROOT>, host addresses
0x<address>, and timings, which vary, are left out. Python 3's standard library only.

    golden.py TILE_DOCTOR_BINARY [--update] [NAME ...]
"""
import difflib
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))

# name -> (bundle, extra options): clean kernels, each family's findings, the MetaX target's semantics.
CASES = {
    "clean_reduction": ("tests/bundles/reduce/bundle.toml", []),
    "missing_barrier": ("tests/bundles/missing_barrier/bundle.toml", []),
    "missing_barrier_fixed": ("tests/bundles/missing_barrier/bundle_fixed.toml", []),
    "shared_overflow": ("tests/bundles/shared_overflow/bundle.toml", []),
    "histogram_race": ("tests/bundles/races/bundle_histogram.toml", []),
    "divergent_barrier": ("tests/bundles/races/bundle_divergent_barrier.toml", []),
    "same_value_layernorm": ("tests/bundles/same_value/layernorm.toml", []),
    "half_accumulating_gemm": ("tests/bundles/numerics/gemm_half_accum.toml", []),
    "wild_pointer": ("tests/bundles/wild_pointer/bundle.toml", []),
    "misaligned": ("tests/bundles/misaligned/bundle.toml", []),
    "private_memory": ("tests/bundles/private_memory/bundle.toml", ["--target", "metax-c500"]),
    "partial_barrier_on_metax": ("tests/bundles/partial_barrier/bundle.toml", ["--target", "metax-c500"]),
    "lane_bits_on_metax": ("tests/bundles/lane_bits/bundle.toml", ["--target", "metax-c500"]),
}


def normalise_text(text):
    text = text.replace(ROOT + "/", "<ROOT>/").replace(ROOT, "<ROOT>")
    return re.sub(r"0x[0-9a-f]{8,}", "0x<address>", text)  # host addresses move from run to run


def normalise_json(report):
    report.pop("timing", None)
    return json.loads(normalise_text(json.dumps(report)))


def run(bundle, options, fmt):
    cmd = [TOOL, "check", os.path.join(ROOT, bundle), "--jobs", "1", "--format", fmt, *options]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=ROOT)
    out = proc.stdout if fmt == "json" else proc.stdout + proc.stderr
    return proc.returncode, out


def reports(name):
    bundle, options = CASES[name]
    code, text = run(bundle, options, "text")
    _, js = run(bundle, options, "json")
    text = f"# tile-doctor check {bundle} {' '.join(options)} (exit {code})\n" + normalise_text(text)
    return text, json.dumps(normalise_json(json.loads(js)), indent=1, sort_keys=True) + "\n"


def main():
    global TOOL
    args = sys.argv[1:]
    TOOL = os.path.abspath(args.pop(0))
    update = "--update" in args
    names = [a for a in args if a != "--update"] or list(CASES)
    failed = []
    for name in names:
        text, js = reports(name)
        for suffix, got in ((".txt", text), (".json", js)):
            path = os.path.join(HERE, name + suffix)
            if update:
                with open(path, "w") as f:
                    f.write(got)
                continue
            want = open(path).read() if os.path.exists(path) else ""
            if got != want:
                failed.append(name + suffix)
                sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                                           f"kept {name}{suffix}", f"now {name}{suffix}"))
    if update:
        print(f"wrote {len(names)} golden reports (text and JSON) under {HERE}")
        return 0
    print(f"{len(names) - len({f.rsplit('.', 1)[0] for f in failed})} of {len(names)} reports as kept"
          + (f"; differ: {', '.join(failed)} (golden.py TOOL --update NAME writes the new one)" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
