"""python -m tile_doctor_capture --out DIR [--arch sm_80] [--param N=V] -- script.py [script args]

Runs the script with TileLang's compile step captured and writes DIR/capture.json:
{"tilelang_version", "script", "kernels": [{"bundle", "entry", "from", "unresolved"}], "stopped": {"where", "why"},
"error", "error_where"}.
"""

from __future__ import annotations

import argparse
import json
import os
import runpy
import sys
import traceback


def _script_frame(tb, script: str) -> str:
    """The innermost line of the user's script in a traceback ("kernel.py:31")."""
    where = ""
    for frame in traceback.extract_tb(tb):
        if os.path.abspath(frame.filename) == script:
            where = f"{frame.filename}:{frame.lineno}"
    return where


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tile_doctor_capture")
    parser.add_argument("--out", required=True)
    parser.add_argument("--arch", default="sm_80")
    parser.add_argument("--param", action="append", default=[])
    parser.add_argument("script")
    parser.add_argument("script_args", nargs=argparse.REMAINDER)
    opts = parser.parse_args(argv)
    os.makedirs(opts.out, exist_ok=True)
    script = os.path.abspath(opts.script)
    result = {"script": script, "kernels": [], "stopped": None, "error": None, "tilelang_version": None}

    def save():
        with open(os.path.join(opts.out, "capture.json"), "w") as f:
            json.dump(result, f, indent=1)

    params = {}
    for p in opts.param:
        name, _, value = p.partition("=")
        params[name] = value
    os.environ.setdefault("TILELANG_DISABLE_CACHE", "1")  # a cached kernel would skip the compile step
    try:
        from tile_doctor_capture import hooks
        capture = hooks.install(opts.out, opts.arch, params, script)
    except Exception as e:  # TileLang missing or incompatible
        result["error"] = f"cannot load TileLang in {sys.executable}: {type(e).__name__}: {e}"
        save()
        return 0
    result["tilelang_version"] = capture.tilelang_version

    sys.argv = [script] + opts.script_args
    sys.path.insert(0, os.path.dirname(script))
    try:
        runpy.run_path(script, run_name="__main__")
    except hooks.KernelCalled as stop:
        result["stopped"] = {"where": stop.where, "why": str(stop)}
    except SystemExit as e:
        if e.code not in (None, 0):
            result["stopped"] = {"where": _script_frame(e.__traceback__, script), "why": f"the script exited with {e.code}"}
    except BaseException as e:  # the script's own failure: typically its first use of a GPU
        where = _script_frame(e.__traceback__, script)
        why = f"{type(e).__name__}: {e}".strip()
        if isinstance(e, hooks.CaptureError):
            result["error"], result["error_where"] = why, where
        else:
            result["stopped"] = {"where": where, "why": why.splitlines()[0] if why else type(e).__name__}
    result["kernels"] = capture.kernels
    save()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
