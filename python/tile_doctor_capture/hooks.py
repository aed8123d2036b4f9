"""Replaces TileLang's compile step while a script runs: each PrimFunc is lowered for the capture's CUDA
architecture, written as a bundle, and returned as a stand-in kernel object."""

from __future__ import annotations

import os
import sys
import traceback

import tilelang
import tilelang.jit  # noqa: F401  (the module; `tilelang.jit` the attribute is the decorator)
from tilelang import tvm

from tile_doctor_capture.bundle_writer import CaptureError, output_positions, write_bundles


class KernelCalled(Exception):
    """Raised by a stand-in kernel when the script launches it: the capture ends there."""

    def __init__(self, where: str, entry: str):
        super().__init__(f"the script launched kernel {entry}, which needs a GPU; the kernels compiled so far are checked")
        self.where = where


class Capture:
    def __init__(self, out_dir: str, arch: str, params: dict, script: str):
        self.out_dir, self.arch, self.params, self.script = os.path.abspath(out_dir), arch, params, script
        self.kernels: list[dict] = []
        self.tilelang_version = getattr(tilelang, "__version__", "unknown")
        self.tilelang_dir = os.path.dirname(os.path.abspath(tilelang.__file__))
        self.include = [os.path.join(self.tilelang_dir, "src"),
                        os.path.join(self.tilelang_dir, "3rdparty", "cutlass", "include")]

    def where(self) -> str:
        """The script line that asked for this compile (innermost frame in the script)."""
        hit = ""
        for frame in traceback.extract_stack():
            if os.path.abspath(frame.filename) == self.script:
                hit = f"{frame.filename}:{frame.lineno}"
        return hit or self.script

    def compile(self, func, out_idx=None, execution_backend=None, target=None, target_host=None, verbose=None,
                pass_configs=None, compile_flags=None):
        attrs = func.attrs
        if out_idx is None and attrs and "tilelang_out_idx" in attrs:
            out_idx = list(attrs["tilelang_out_idx"])
        if isinstance(out_idx, int):
            out_idx = [out_idx]
        configs = dict(attrs["tilelang_pass_configs"]) if attrs and "tilelang_pass_configs" in attrs else {}
        configs.update(pass_configs or {})
        configs["tl.emit_line_directives"] = True
        where = self.where()
        t = tvm.target.Target({"kind": "cuda", "arch": self.arch})
        try:
            with tvm.transform.PassContext(config=configs), t:
                artifact = tilelang.lower(func, target=t)
        except Exception as e:  # the user's TileLang program does not lower: their error, at their line
            raise CaptureError(f"TileLang could not lower the kernel compiled here: {type(e).__name__}: {e}") from e
        info = {"where": where, "tilelang_version": self.tilelang_version, "arch": self.arch,
                "include": self.include, "tilelang_dir": self.tilelang_dir, "params": self.params, "floats": {}}
        index = len(self.kernels)
        written = write_bundles(artifact, func, out_idx, self.out_dir, index, info)
        self.kernels.extend(written)
        return StandInKernel(self, artifact, func, out_idx, info, index, written)

    def resolve_from_call(self, kernel: "StandInKernel", args) -> None:
        """A launch shows the real values of symbolic dimensions and scalars: rewrite the kernel's bundles
        with them (the script's call is the truth; --param values given for others stay)."""
        func = kernel.prim_func
        outputs = output_positions(kernel.out_idx, len(func.params))
        inputs = [v for i, v in enumerate(func.params) if i not in outputs]
        params, floats = dict(kernel.info["params"]), dict(kernel.info["floats"])
        for var, value in zip(inputs, args):
            if var in func.buffer_map and hasattr(value, "shape"):
                for dim, extent in zip(func.buffer_map[var].shape, value.shape):
                    if not isinstance(dim, tvm.tirx.IntImm) and hasattr(dim, "name"):
                        params.setdefault(dim.name, int(extent))
            elif var not in func.buffer_map and isinstance(value, (int, float)):
                if str(var.dtype).startswith("float"):
                    floats[var.name] = float(value)
                else:
                    params[var.name] = int(value)
        info = dict(kernel.info, params=params, floats=floats)
        rewritten = write_bundles(kernel.artifact, func, kernel.out_idx, self.out_dir, kernel.index, info)
        for old, new in zip(kernel.written, rewritten):
            self.kernels[self.kernels.index(old)] = new


class StandInKernel:
    """What the script gets back from tilelang.compile: the source is there; a launch ends the capture."""

    def __init__(self, capture: Capture, artifact, prim_func, out_idx, info: dict, index: int, written: list):
        self._capture, self.artifact, self.prim_func, self.out_idx = capture, artifact, prim_func, out_idx
        self.info, self.index, self.written = info, index, written
        self._entry = written[0]["entry"]
        self.params = artifact.params
        self.kernel_source = artifact.kernel_source

    def get_kernel_source(self, kernel_only: bool = True) -> str:
        return self.artifact.kernel_source

    def __call__(self, *args, **kwargs):
        try:
            self._capture.resolve_from_call(self, args)
        except Exception:  # an unusual call: the bundles keep what the compile step knew
            pass
        raise KernelCalled(self._capture.where(), self._entry)

    def get_profiler(self, *args, **kwargs):
        raise KernelCalled(self._capture.where(), self._entry)


def install(out_dir: str, arch: str, params: dict, script: str) -> Capture:
    capture = Capture(out_dir, arch, params, script)
    # tilelang.compile is tilelang.jit.compile; the @tilelang.jit wrapper and par_compile look the module
    # global up at call time, so replacing it there covers all three.
    sys.modules["tilelang.jit"].compile = capture.compile
    tilelang.compile = capture.compile
    return capture
