"""Replaces TileLang's compile step while a script runs: each PrimFunc is lowered for the capture's CUDA
architecture, written as a bundle, and returned as a stand-in kernel object."""

from __future__ import annotations

import os
import sys
import traceback

import tilelang
import tilelang.jit  # noqa: F401  (the module; `tilelang.jit` the attribute is the decorator)

from tile_doctor_capture import autotune, channel, launch, lowering
from tile_doctor_capture.bundle_writer import CaptureError, output_positions, write_bundles


def display_path(path: str) -> str:
    """A path as the user would write it: relative to the working folder when it lies inside it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


class Notes:
    """What the capture tells the report besides launches (answered benchmarks, the autotuner's choice)."""

    def __init__(self):
        self.items: list[dict] = []

    def add(self, where: str, text: str) -> None:
        if not any(n["where"] == where and n["text"] == text for n in self.items):
            self.items.append({"where": where, "text": text})


class Capture:
    def __init__(self, out_dir: str, arch: str, params: dict, script: str, cache_dir: str = "", kept: bool = False,
                 lowering_kind: str = "cuda"):
        self.out_dir, self.arch, self.params, self.script = os.path.abspath(out_dir), arch, params, script
        self.lowering = lowering_kind  # cuda, hip (the wave-64 stand-in) or maca
        self.lowering_text = lowering.describe(lowering_kind, arch)
        self.cache_dir, self.kept = cache_dir, kept
        self.kernels: list[dict] = []
        self.compiles = 0  # every compile its own number, a failed one too: no later kernel takes its folder
        self.launches = 0
        self.launched: set[int] = set()
        self.timeline = None  # the memory timeline (memory_timeline.py), when profile asks for it
        self.notes = Notes()
        self.tilelang_version = getattr(tilelang, "__version__", "unknown")
        self.tilelang_dir = os.path.dirname(os.path.abspath(tilelang.__file__))
        self.include = [os.path.join(self.tilelang_dir, "src")]
        if lowering_kind == "cuda":
            self.include.append(os.path.join(self.tilelang_dir, "3rdparty", "cutlass", "include"))

    def adopt(self, kernel: "StandInKernel") -> None:
        """A kernel compiled under an earlier capture of this process (a @tilelang.jit cache kept it past its
        tile_doctor.checking block) launched under this one: it joins this capture's kernels."""
        index = self.compiles
        self.compiles += 1
        for w in kernel.written:
            self.kernels.append(dict(w, index=index))
        kernel.index, kernel._capture = index, self

    def next_launch(self) -> int:
        self.launches += 1
        return self.launches

    def write_launch_bundles(self, kernel: "StandInKernel", info: dict, launch: dict) -> list[dict]:
        return write_bundles(kernel.lowered, kernel.prim_func, kernel.out_idx, self.out_dir, kernel.index, info, launch)

    def where(self) -> str:
        """The script line that asked for this compile (innermost frame in the script)."""
        hit = ""
        for frame in traceback.extract_stack():
            if os.path.abspath(frame.filename) == self.script:
                hit = f"{display_path(frame.filename)}:{frame.lineno}"
        return hit or display_path(self.script)

    def compile(self, func, out_idx=None, execution_backend=None, target=None, target_host=None, verbose=None,
                pass_configs=None, compile_flags=None):
        try:
            return self._compile(func, out_idx, pass_configs)
        except CaptureError as e:  # the script may catch it and go on (a test runner does): the report says it
            self.notes.add(self.where(), f"a kernel compiled here was not checked: {e}")
            raise

    def _compile(self, func, out_idx, pass_configs):
        attrs = func.attrs
        if out_idx is None and attrs and "tilelang_out_idx" in attrs:
            out_idx = list(attrs["tilelang_out_idx"])
        if isinstance(out_idx, int):
            out_idx = [out_idx]
        configs = dict(attrs["tilelang_pass_configs"]) if attrs and "tilelang_pass_configs" in attrs else {}
        configs.update(pass_configs or {})
        configs["tl.emit_line_directives"] = True
        where = self.where()
        lowered = lowering.lower(func, self.arch, configs, self.cache_dir and os.path.join(self.cache_dir, "lowered"),
                                 self.lowering)
        index = self.compiles
        self.compiles += 1
        if self.cache_dir and not self.kept:  # by content, in the cache: a later run finds its compiled module
            folder = lowering.source_folder(lowered, os.path.join(self.cache_dir, "sources"))
        else:  # beside the bundles, to edit and re-run
            folder = os.path.join(self.out_dir, f"k{index}_{lowered.kernels[0]['entry']}" if lowered.kernels else "k")
        source, lines = lowering.store_source(lowered, self.tilelang_dir, folder,
                                              ".cu" if self.lowering == "cuda" else "." + self.lowering)
        info = {"where": where, "tilelang_version": self.tilelang_version, "arch": self.arch,
                "lowering": self.lowering, "lowering_text": self.lowering_text,
                "include": self.include, "tilelang_dir": self.tilelang_dir, "params": self.params, "floats": {},
                "source": source, "lines": lines}
        written = write_bundles(lowered, func, out_idx, self.out_dir, index, info)
        for w in written:
            w["index"] = index
        self.kernels.extend(written)
        return StandInKernel(self, lowered, func, out_idx, info, index, written)


class StandInKernel:
    """What the script gets back from tilelang.compile: the source is there, and each call runs the kernel
    under tile-doctor with the call's own tensors (launch.run), then returns what TileLang would."""

    def __init__(self, capture: Capture, lowered, prim_func, out_idx, info: dict, index: int, written: list):
        self._capture, self.lowered, self.prim_func, self.out_idx = capture, lowered, prim_func, out_idx
        self.info, self.index, self.written = info, index, written
        self.entry = written[0]["entry"]
        self.entries = [w["entry"] for w in written]
        self.kernel_source = lowered.kernel_source
        self.latency, self.config, self.ref_latency = None, None, None  # autotuner results

    @property
    def params(self):
        return self.lowered.params

    def get_kernel_source(self, kernel_only: bool = True) -> str:
        return self.lowered.kernel_source

    def __call__(self, *args, **kwargs):
        if not channel.available():  # a capture without a running tile-doctor (the module run by hand)
            raise RuntimeError("the kernel can only run under `tile-doctor check kernel.py` or inside "
                               "tile_doctor.checking()")
        if kwargs:
            raise TypeError(f"kernel {self.entry} takes positional arguments only, as TileLang's adapters do")
        if _active is not None and _active is not self._capture:
            _active.adopt(self)
        self._capture.launched.add(self.index)
        return launch.run(self._capture, self, args, self._capture.where())

    def get_profiler(self, tensor_supply_type=None):
        from tilelang.profiler import Profiler
        from tilelang.utils.tensor import TensorSupplyType
        supply = TensorSupplyType.Auto if tensor_supply_type is None else tensor_supply_type
        return Profiler(self.params, output_positions_list(self.out_idx, len(self.prim_func.params)),
                        supply).with_default_adapter(self)

    def run_once(self, func=None):
        return self.get_profiler().run_once(func)

    def show_source(self, which: str = "kernel") -> None:
        print(self.lowered.kernel_source)


def output_positions_list(out_idx, n: int) -> list[int]:
    return sorted(output_positions(out_idx, n))


def _answer_benchmarks(capture: Capture) -> None:
    """TileLang's benchmarking would time the CPU executor: it answers NaN milliseconds and says so."""
    import tilelang.profiler as profiler

    def no_timing(*args, **kwargs):
        capture.notes.add(capture.where(), "a TileLang benchmark (do_bench) was answered without timing: NaN ms")
        return float("nan")

    def run_once_untimed(fn=None, *args, **kwargs):
        # do_bench(lambda: kernel(q, k, v)) may be a script's only call of a kernel: it runs once, checked
        if callable(fn):
            fn()
            capture.notes.add(capture.where(), "a TileLang benchmark (do_bench) ran its function once, untimed: NaN ms")
            return float("nan")
        return no_timing()

    profiler.Profiler.do_bench = lambda self, *a, **k: no_timing()
    profiler.do_bench = run_once_untimed
    if "tilelang.profiler.bench" in sys.modules:
        sys.modules["tilelang.profiler.bench"].do_bench = run_once_untimed


_active = None  # the capture launches go to (the latest installed; none after deactivate())


def deactivate() -> None:
    """The end of a tile_doctor.checking block: no capture is active until the next install."""
    global _active
    _active = None


def install(out_dir: str, arch: str, params: dict, script: str, autotune_mode: str = "first", cache_dir: str = "",
            kept: bool = False, lowering_choice: str = "auto", warp_size: int = 32) -> Capture:
    global _active
    capture = Capture(out_dir, arch, params, script, cache_dir, kept, lowering.choose(lowering_choice, warp_size))
    _active = capture
    _answer_benchmarks(capture)
    autotune.install(capture, autotune_mode)
    # tilelang.compile is tilelang.jit.compile; the @tilelang.jit wrapper and par_compile look the module
    # global up at call time, so replacing it there covers all three.
    sys.modules["tilelang.jit"].compile = capture.compile
    tilelang.compile = capture.compile
    _capture_direct_construction(capture)
    return capture


def _capture_direct_construction(capture: Capture) -> None:
    """`JITKernel(program, out_idx=..., target="cuda")` builds a kernel without tilelang.compile (TileLang's
    tests do): the class then hands back the capture's stand-in, as tilelang.compile would. A JITKernel
    restored from TileLang's kernel cache is left alone (the capture turns that cache off)."""
    from tilelang.jit.kernel import JITKernel

    def new(cls, func=None, out_idx=None, execution_backend=None, target=None, target_host=None, verbose=False,
            pass_configs=None, from_database=False, compile_flags=None, **ignored):
        if func is None or from_database:
            return object.__new__(cls)
        return capture.compile(func, out_idx=out_idx, pass_configs=pass_configs)

    JITKernel.__new__ = new
