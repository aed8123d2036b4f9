"""What both campaigns (campaign.py, hostile.py) share: their options, the loop that runs one check per seed
on a thread pool until the seeds or the time budget run out, and where a failing program's folder is kept."""
import argparse
import concurrent.futures
import json
import os
import shutil
import signal
import subprocess
import time


def arguments(doc, default_out):
    """The options every campaign takes; a campaign adds its own before parsing."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tool", required=True)
    parser.add_argument("--programs", type=int, required=True)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default=default_out)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--budget-seconds", type=float, default=0, help="start no program after this")
    parser.add_argument("--executor", choices=["cpu", "cuda"], default="cpu")
    return parser


def clean_up(out, seed, work, failed):
    """Removes a program's folder, first copying a failing one to OUT/failures/SEED (replacing an older one)."""
    if failed:
        keep = os.path.join(out, "failures", str(seed))
        shutil.rmtree(keep, ignore_errors=True)
        shutil.copytree(work, keep)
    shutil.rmtree(work, ignore_errors=True)


def run_seeds(check, first_seed, count, jobs, budget_seconds, on_result):
    """Calls check(seed) for seeds first_seed.. on `jobs` threads and on_result(result) as each ends; starts
    no seed once budget_seconds (0: none) have passed, or once SIGUSR1 came (a campaign cut short still
    finishes the programs in flight and writes its summary)."""
    started = time.monotonic()
    seeds = iter(range(first_seed, first_seed + count))
    stop = []
    signal.signal(signal.SIGUSR1, lambda *_: stop.append(True))
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        pending = set()

        def submit_next():
            if stop or (budget_seconds and time.monotonic() - started > budget_seconds):
                return
            seed = next(seeds, None)
            if seed is not None:
                pending.add(pool.submit(check, seed))

        for _ in range(jobs * 2):
            submit_next()
        while pending:
            done, _ = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                pending.remove(future)
                on_result(future.result())
                submit_next()
    return time.monotonic() - started


def write_summary(out, totals):
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(totals, f, indent=1, sort_keys=True)


class NotFinished:
    def __init__(self, seed, why):
        self.seed, self.why = seed, why


def run_campaign(opts, check, on_result, totals):
    """Runs check(opts, seed) over the options' seeds (run_seeds), then records the seconds in `totals`,
    removes the scratch folder and writes OUT/summary.json. A seed whose run outlives the harness's own
    per-run limit (a starved machine, not a finding) is listed in totals["not_finished"] and the campaign
    goes on; it counts in no other figure."""
    totals.setdefault("not_finished", [])

    def checked(seed):
        try:
            return check(opts, seed)
        except subprocess.TimeoutExpired as e:
            return NotFinished(seed, f"one run outlived the harness's {e.timeout:.0f} s limit")

    def dispatch(result):
        if isinstance(result, NotFinished):
            totals["not_finished"].append({"seed": result.seed, "why": result.why})
            print(f"seed {result.seed}: not finished: {result.why} (run it again alone)", flush=True)
        else:
            on_result(result)

    seconds = run_seeds(checked, opts.first_seed, opts.programs, opts.jobs, opts.budget_seconds, dispatch)
    totals["seconds"] = round(seconds, 1)
    shutil.rmtree(opts.scratch, ignore_errors=True)
    write_summary(opts.out, totals)
