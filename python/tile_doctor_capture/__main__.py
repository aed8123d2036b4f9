"""python -m tile_doctor_capture --out DIR [--arch sm_80] [--param N=V] [--profile JSON] [--autotune first|all]
    script.py [args]

Runs the script to its end with TileLang's compile step captured; each kernel launch is run by the
tile-doctor process at the other end of $TILE_DOCTOR_CHANNEL. Writes DIR/capture.json
(docs/capture-channel.md): {"protocol", "tilelang_version", "script", "host_device", "kernels": [{"bundle", "entry", "from", "index", "launched",
"unresolved"}], "notes": [{"where", "text"}], "script_exit": {"code", "where", "why"}, "error", "error_where"}.
"""

from __future__ import annotations

import argparse
import json
import os
import runpy
import sys
import traceback


def _use_host_device(profile: dict) -> bool:
    """Without a usable GPU the script's CUDA tensors live in host memory (host_device)."""
    import torch
    if torch.cuda.is_available():
        return False
    from tile_doctor_capture import host_device
    host_device.install(profile)
    return True


def _seed_generators(seed: int) -> None:
    """The same random inputs in two runs of one script (diff pairs their launches)."""
    import random
    random.seed(seed)
    try:
        import numpy
        numpy.random.seed(seed % 2**32)
    except ImportError:
        pass
    import torch
    torch.manual_seed(seed)


def main(argv: list[str]) -> int:
    """argv: the capture's options, then `--`, the script and its own arguments, which are never parsed here
    (a script's `--seed` or `--m` is its own)."""
    if "--" not in argv:
        print("tile_doctor_capture: usage: [options] -- SCRIPT [ARGS...]", file=sys.stderr)
        return 2
    cut = argv.index("--")
    argv, script_argv = argv[:cut], argv[cut + 1:]
    if not script_argv:
        print("tile_doctor_capture: no script after --", file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(prog="tile_doctor_capture", allow_abbrev=False)
    parser.add_argument("--out", required=True)
    parser.add_argument("--arch", default="sm_80")
    parser.add_argument("--param", action="append", default=[])
    parser.add_argument("--profile", default="{}")
    parser.add_argument("--autotune", choices=("first", "all"), default="first")
    parser.add_argument("--lowering", choices=("auto", "cuda", "hip", "maca"), default="auto")
    parser.add_argument("--cache", default="", help="tile-doctor's cache folder (lowerings, sources); none: off")
    parser.add_argument("--kept", action="store_true", help="--out is the user's --keep folder")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed Python's, NumPy's and torch's generators before the script runs (diff's two runs)")
    parser.add_argument("--memory", action="store_true",
                        help="record the memory timeline of the script's tensors into --out/memory.json (profile)")
    parser.add_argument("--memory-viz", default="",
                        help="with --memory: also write the timeline as a snapshot PyTorch's memory_viz opens")
    opts = parser.parse_args(argv)
    opts.script, opts.script_args = script_argv[0], script_argv[1:]
    os.makedirs(opts.out, exist_ok=True)
    script = os.path.abspath(opts.script)
    from tile_doctor_capture import capture_file
    result = capture_file.new_record(script)

    def save():
        capture_file.save(result, opts.out)

    params = {}
    for p in opts.param:
        name, _, value = p.partition("=")
        params[name] = value
    from tile_doctor_capture.target_profile import with_capability
    profile = with_capability(json.loads(opts.profile), opts.arch)
    os.environ.setdefault("TILELANG_DISABLE_CACHE", "1")  # a cached kernel would skip the compile step
    try:
        result["host_device"] = _use_host_device(profile)
        from tile_doctor_capture import hooks
        capture = hooks.install(opts.out, opts.arch, params, script, opts.autotune, opts.cache, opts.kept,
                                opts.lowering, int(profile.get("warp_size", 32)))
        if result["host_device"]:
            from tile_doctor_capture import host_device
            host_device.answer_tvm_device_queries(profile)
    except Exception as e:  # TileLang or torch missing or incompatible
        result["error"] = f"cannot load TileLang in {sys.executable}: {type(e).__name__}: {e}"
        save()
        return 0
    result["tilelang_version"] = capture.tilelang_version
    result["lowering"] = capture.lowering_text

    if opts.seed is not None:
        _seed_generators(opts.seed)
    sys.argv = [script] + opts.script_args
    sys.path.insert(0, os.path.dirname(script))
    code, where, why = 0, "", ""
    timeline = None
    if opts.memory:
        from tile_doctor_capture.memory_timeline import MemoryTimeline
        timeline = capture.timeline = MemoryTimeline(script, allocator_history=bool(opts.memory_viz))
        timeline.__enter__()
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        if e.code not in (None, 0):
            code = e.code if isinstance(e.code, int) else 1
            where, why = capture_file.script_frame(e.__traceback__, script), f"the script exited with {e.code}"
    except BaseException as e:  # the script's own failure, after whatever it launched so far
        where = capture_file.script_frame(e.__traceback__, script)
        text = f"{type(e).__name__}: {e}".strip()
        if isinstance(e, hooks.CaptureError):
            result["error"], result["error_where"] = text, where
        code, why = 1, text.splitlines()[0] if text else type(e).__name__
        if isinstance(e, ModuleNotFoundError) and e.name:  # say where the package has to go
            why += (f" (tile-doctor runs the script with {sys.executable}: install {e.name} there, or point "
                    "TILE_DOCTOR_PYTHON at an interpreter that has it)")
        if not isinstance(e, hooks.CaptureError):
            traceback.print_exception(e)  # as Python would have shown it
    if timeline is not None:
        timeline.__exit__(None, None, None)
        if opts.memory_viz:
            try:
                result["memory_viz"] = {"path": opts.memory_viz, "holds": timeline.export_memory_viz(opts.memory_viz)}
            except Exception as e:  # the report says it, the timeline itself still stands
                result["memory_viz"] = {"path": opts.memory_viz, "error": f"{type(e).__name__}: {e}"}
        timeline.save(os.path.join(opts.out, "memory.json"))
    capture_file.finish(result, capture, code, where, why)
    save()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
