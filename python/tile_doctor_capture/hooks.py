"""Replaces TileLang's compile step while a script runs: each PrimFunc is lowered for the capture's CUDA
architecture, written as a bundle, and returned as a stand-in kernel object."""

from __future__ import annotations

import os
import traceback

import tilelang
import tilelang.jit as tl_jit
from tilelang import tvm

from tile_doctor_capture.bundle_writer import CaptureError, write_bundles


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
        written = write_bundles(artifact, func, out_idx, self.out_dir, len(self.kernels), info)
        self.kernels.extend(written)
        return StandInKernel(self, artifact, out_idx, written[0]["entry"])


class StandInKernel:
    """What the script gets back from tilelang.compile: the source is there; a launch ends the capture."""

    def __init__(self, capture: Capture, artifact, out_idx, entry: str):
        self._capture, self.artifact, self.out_idx, self._entry = capture, artifact, out_idx, entry
        self.params = artifact.params
        self.kernel_source = artifact.kernel_source

    def get_kernel_source(self, kernel_only: bool = True) -> str:
        return self.artifact.kernel_source

    def __call__(self, *args, **kwargs):
        raise KernelCalled(self._capture.where(), self._entry)

    def get_profiler(self, *args, **kwargs):
        raise KernelCalled(self._capture.where(), self._entry)


def install(out_dir: str, arch: str, params: dict, script: str) -> Capture:
    capture = Capture(out_dir, arch, params, script)
    # tilelang.compile is tilelang.jit.compile; the @tilelang.jit wrapper and par_compile look the module
    # global up at call time, so replacing it there covers all three.
    tl_jit.compile = capture.compile
    tilelang.compile = capture.compile
    return capture
