#!/usr/bin/env python3
"""A campaign of generated kernels (generate.py) through `tile-doctor check`.

For each program: the uninstrumented run (`--checks launch`), then each family alone and all together;
each must exit 0 with no finding and write outputs bit-identical to the uninstrumented run's. Then one
mutant of the program (a dropped barrier or a guard widened by one, chosen by the seed) under the default
checks must be found: exit 1 and a finding of the expected kind at the mutated stage's lines.

    campaign.py --tool build/tile-doctor --programs N [--first-seed S] [--jobs J] [--out DIR]
                [--executor cpu|cuda] [--budget-seconds T]

Prints one line per failure and a summary table; DIR/summary.json has the figures, DIR/failures/ the
programs that failed with their reports. Exit 0 when nothing failed, 1 otherwise.
"""
import filecmp
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402
import seeds  # noqa: E402

FAMILIES = ["bounds", "init", "numerics", "race", "sync", "all"]
OUTCOMES = {1: "false finding", 2: "refused as bad input", 3: "crash or hang", 4: "internal error",
            5: "script failure", 6: "cannot run"}


def run_check(opts, bundle, checks, report, outputs):
    cmd = [opts.tool, "check", bundle, "--checks", checks, "--format", "json", "--out", report,
           "--executor", opts.executor, "--timeout", str(opts.timeout)]
    if opts.executor == "cpu":
        cmd += ["--jobs", "1"]
    if outputs:
        cmd += ["--save-outputs", outputs]
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          timeout=opts.timeout * 3 + 300)
    try:
        with open(report) as f:
            data = json.load(f)
    except (OSError, ValueError):
        data = {}
    return proc.returncode, data, proc.stderr


def same_outputs(reference, other):
    names = sorted(os.listdir(reference))
    if names != sorted(os.listdir(other)):
        return False, "different output files"
    for name in names:
        if not filecmp.cmp(os.path.join(reference, name), os.path.join(other, name), shallow=False):
            return False, f"{name} differs"
    return True, ""


def describe(data, stderr):
    findings = data.get("findings") or []
    if findings:
        return "; ".join(f"{f.get('kind')} at line {f.get('location', {}).get('line')}" for f in findings[:4])
    if "error" in data:
        return f"{data['error'].get('kind')}: {data['error'].get('message', '')[:300]}"
    return stderr.strip()[-300:]


def check_program(opts, seed):
    """Returns (info, failures, mutant_result) for one seed; mutant_result is None, 'found' or 'missed'."""
    work = tempfile.mkdtemp(prefix=f"gen{seed}-", dir=opts.scratch)
    failures = []
    prog = generate.make_program(seed)
    info = generate.write(prog, os.path.join(work, "clean"), None)
    bundle = os.path.join(work, "clean", "bundle.toml")
    rc, data, err = run_check(opts, bundle, "launch", os.path.join(work, "launch.json"),
                              os.path.join(work, "out-launch"))
    if rc != 0:
        failures.append(("launch", OUTCOMES.get(rc, f"exit {rc}"), describe(data, err)))
    for family in FAMILIES:
        if failures and failures[0][0] == "launch":
            break
        rc, data, err = run_check(opts, bundle, family, os.path.join(work, f"{family}.json"),
                                  os.path.join(work, f"out-{family}"))
        if rc != 0:
            failures.append((family, OUTCOMES.get(rc, f"exit {rc}"), describe(data, err)))
            continue
        same, why = same_outputs(os.path.join(work, "out-launch"), os.path.join(work, f"out-{family}"))
        if not same:
            failures.append((family, "output difference", why))
    mutant_result = None
    if info["spots"] and not failures:
        index = seed % len(info["spots"])
        spot = info["spots"][index]
        generate.write(prog, os.path.join(work, "mutant"), index)
        rc, data, err = run_check(opts, os.path.join(work, "mutant", "bundle.toml"), "all",
                                  os.path.join(work, "mutant.json"), None)
        def at_spot(finding):  # either access of a race pair may be the one the finding stands at
            lines = [(finding.get(k) or {}).get("line", -1) for k in ("location", "other_access")]
            return any(spot["lines"][0] <= line <= spot["lines"][1] for line in lines)
        hits = [f for f in data.get("findings") or [] if f.get("kind") in spot["finding_kinds"] and at_spot(f)]
        found = rc == 1 and hits
        mutant_result = (spot["kind"], "found" if found else "missed")
        if not found:
            failures.append((f"mutant {spot['kind']} at line {spot['line']}", "missed",
                             f"exit {rc}: {describe(data, err)}"))
    seeds.clean_up(opts.out, seed, work, failures)
    return info, failures, mutant_result


def main():
    parser = seeds.arguments(__doc__, "kernel-gen-campaign")
    opts = parser.parse_args()
    os.makedirs(opts.out, exist_ok=True)
    opts.scratch = tempfile.mkdtemp(prefix="kernel-gen-")
    totals = {"programs": 0, "runs": 0, "failed_programs": 0, "internal_errors": 0, "false_findings": 0,
              "output_differences": 0, "other_failures": 0, "mutants_planted": {}, "mutants_found": {},
              "features": {}}
    def on_result(result):
        info, failures, mutant = result
        totals["programs"] += 1
        totals["runs"] += 1 + len(FAMILIES) + (mutant is not None)
        for feature in info["features"]:
            totals["features"][feature] = totals["features"].get(feature, 0) + 1
        if mutant:
            kind, outcome = mutant
            totals["mutants_planted"][kind] = totals["mutants_planted"].get(kind, 0) + 1
            if outcome == "found":
                totals["mutants_found"][kind] = totals["mutants_found"].get(kind, 0) + 1
        if failures:
            totals["failed_programs"] += 1
        for where, what, detail in failures:
            key = {"internal error": "internal_errors", "false finding": "false_findings",
                   "output difference": "output_differences"}.get(what, "other_failures")
            totals[key] += 1
            print(f"seed {info['seed']}: {where}: {what}: {detail}", flush=True)

    seeds.run_campaign(opts, check_program, on_result, totals)
    planted = sum(totals["mutants_planted"].values())
    found = sum(totals["mutants_found"].values())
    print(f"programs {totals['programs']} (seeds from {opts.first_seed}), runs {totals['runs']}, "
          f"{totals['seconds']} s, executor {opts.executor}")
    print(f"internal errors {totals['internal_errors']}, false findings {totals['false_findings']}, "
          f"output differences {totals['output_differences']}, other failures {totals['other_failures']}")
    print(f"mutants found {found} of {planted}: " + ", ".join(
        f"{k} {totals['mutants_found'].get(k, 0)}/{v}" for k, v in sorted(totals["mutants_planted"].items())))
    if totals["not_finished"]:
        print("not finished (not counted): " + ", ".join(str(n["seed"]) for n in totals["not_finished"]))
    print("features: " + ", ".join(f"{k} {v}" for k, v in sorted(totals["features"].items())))
    sys.exit(1 if totals["failed_programs"] else 0)


if __name__ == "__main__":
    main()
