"""TileLang's lowering of one PrimFunc, reduced to what tile-doctor needs (the generated source and, per
device kernel, its parameters, grid, block and dynamic shared memory) and kept between runs: a repeated
check of the same program skips TileLang's passes. The key is the PrimFunc's TVMScript text, the target,
the pass configurations, the TileLang version and where TileLang is installed; entries are JSON files
written under a temporary name and renamed, so concurrent runs share them. The TVMScript text has no
source lines, but the generated code's #line directives do: an entry also records each file they name
(size, modification time) and serves only while all are unchanged, so an edited or moved script (or a
cache copied from another checkout) is lowered again instead of mapping to stale lines."""

from __future__ import annotations

import hashlib
import json
import os

import tilelang
from tilelang import tvm

from tile_doctor_capture.bundle_writer import CaptureError, directive_paths, expr_text, split_line_directives


class Lowered:
    def __init__(self, kernel_source: str, kernels: list[dict], tma: dict, prim_func, target):
        self.kernel_source, self.kernels, self.tma = kernel_source, kernels, tma
        self._prim_func, self._target, self._artifact = prim_func, target, None
        self.digest = hashlib.sha256(kernel_source.encode()).hexdigest()  # the generated code's identity

    @property
    def params(self):
        """TileLang's KernelParams (its profiler wants them): from a real lowering, done when first asked."""
        if self._artifact is None:
            with self._target:
                self._artifact = tilelang.lower(self._prim_func, target=self._target)
        return self._artifact.params


# what an entry holds: 2 added the TMA descriptors, 3 a stand-in's target_shared, 4 the line directives' files,
# 5 keyed by the whole target (the stand-in's GPU changed; no target_shared since its pipeline is MACA's)
_CACHE_FORMAT = 5


def _file_stamps(kernel_source: str) -> dict[str, list[int]]:
    """Each file the #line directives name -> [size, mtime_ns] ([-1, -1] when it is not there)."""
    stamps = {}
    for path in directive_paths(kernel_source):
        try:
            st = os.stat(path)
            stamps[path] = [st.st_size, st.st_mtime_ns]
        except OSError:
            stamps[path] = [-1, -1]
    return stamps


def _summarise(artifact) -> list[dict]:
    kernels = []
    for gv, func in artifact.device_mod.functions.items():
        if "thread_extent" not in func.attrs:
            continue
        extent = func.attrs["thread_extent"]
        shared = func.attrs.get("dyn_shared_memory_buf")
        kernels.append({
            "entry": str(gv.name_hint),
            "params": [[var.name, str(var.dtype)] for var in func.params],
            "grid": [expr_text(extent.get(f"blockIdx.{a}", 1)) for a in "xyz"],
            "block": [expr_text(extent.get(f"threadIdx.{a}", 1)) for a in "xyz"],
            "shared": expr_text(shared) if shared is not None else 0,
        })
    return kernels


def _tma_descriptors(artifact) -> dict:
    """The Hopper TMA descriptors TileLang's host code builds before a launch (descriptor parameter name ->
    the arguments of its __tvm_tensormap_create_tiled call), for the CUDA executor to build them the same way:
    data type (CUtensorMapDataType), the tensor, then per dimension (innermost first) the sizes in elements,
    the strides in bytes (the first is the element size), the box and the element strides; then interleave,
    swizzle, L2 promotion and out-of-bounds fill."""
    found = {}
    for _, func in artifact.host_mod.functions.items():
        attrs = getattr(func, "attrs", None)
        calls = attrs.get("tma_descriptor_args") if attrs is not None else None
        for desc, call in (calls or {}).items():
            items = list(call)
            name = getattr(desc, "name", str(desc))
            kind = getattr(items[0], "value", str(items[0]))  # a StringImm
            if kind != "__tvm_tensormap_create_tiled":
                found[name] = {"unsupported": kind}  # im2col descriptors (convolutions)
                continue
            rank = int(items[3])
            per_dim = [[expr_text(v) for v in items[5 + i * rank:5 + (i + 1) * rank]] for i in range(4)]
            interleave, swizzle, l2, oob = (int(v) for v in items[5 + 4 * rank:9 + 4 * rank])
            found[name] = {"tensor": getattr(items[4], "name", str(items[4])), "data_type": int(items[2]),
                           "dims": per_dim[0], "strides": per_dim[1], "box": per_dim[2],
                           "element_strides": per_dim[3], "interleave": interleave, "swizzle": swizzle,
                           "l2_promotion": l2, "oob_fill": oob}
    return found


def _write_atomically(path: str, text: str) -> None:
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


# The wave-64 stand-in for MetaX's MACA backend when tilelang-metax is not installed: TileLang's HIP
# backend (tilelang-metax's codegen derives from it). It lowers without ROCm. For a CDNA4 GPU, the one HIP
# target TileLang software-pipelines (its PipelinePlanning leaves T.Pipelined sequential on every other):
# one shared buffer per stage and asynchronous copies, as MACA's pipeline, which mirrors CUDA's, keeps them.
# The copies then run as MACA's (td_hip_copy.h).
HIP_STAND_IN_MCPU = "gfx950"


def _maca_available() -> bool:
    """tilelang-metax registers TVM's "maca" target kind; PyPI's TileLang does not."""
    try:
        return "maca" in tvm.target.Target.list_kinds()
    except Exception:
        return False


def choose(lowering: str, warp_size: int) -> str:
    """--lowering auto: MetaX's own lowering where tilelang-metax is installed, else the HIP stand-in, for a
    wave-64 target; CUDA for a wave-32 one."""
    if lowering != "auto":
        return lowering
    if warp_size == 64:
        return "maca" if _maca_available() else "hip"
    return "cuda"


def describe(lowering: str, arch: str) -> str:
    """What the report says about the lowering that ran."""
    if lowering == "hip":
        return f"HIP {HIP_STAND_IN_MCPU}, the wave-64 stand-in for MetaX's MACA lowering"
    if lowering == "maca":
        return f"maca (tilelang-metax {tilelang.__version__})"
    return arch


def target_of(lowering: str, arch: str):
    if lowering == "hip":
        return tvm.target.Target({"kind": "hip", "mcpu": HIP_STAND_IN_MCPU})
    if lowering == "maca":
        if not _maca_available():
            raise CaptureError("--lowering maca needs tilelang-metax (TVM's \"maca\" target), which is not installed "
                               "in this interpreter; --lowering hip lowers for a wave-64 GPU with PyPI's TileLang")
        return tvm.target.Target({"kind": "maca"})
    return tvm.target.Target({"kind": "cuda", "arch": arch})


def lower(func, arch: str, configs: dict, cache_dir: str | None, lowering: str = "cuda") -> Lowered:
    target = target_of(lowering, arch)
    entry_path = None
    if cache_dir:
        material = json.dumps([_CACHE_FORMAT, tilelang.__version__, os.path.dirname(os.path.abspath(tilelang.__file__)),
                               lowering, arch, str(target), sorted((k, str(v)) for k, v in configs.items()), func.script()])
        entry_path = os.path.join(cache_dir, hashlib.sha256(material.encode()).hexdigest() + ".json")
        try:
            with open(entry_path) as f:
                entry = json.load(f)
            if entry["files"] == _file_stamps(entry["kernel_source"]):
                return Lowered(entry["kernel_source"], entry["kernels"], entry["tma"], func, target)
        except (OSError, ValueError, KeyError):
            pass
    try:
        with tvm.transform.PassContext(config=configs), target:
            artifact = tilelang.lower(func, target=target)
    except Exception as e:  # the user's TileLang program does not lower: their error, at their line
        raise CaptureError(f"TileLang could not lower the kernel compiled here ({describe(lowering, arch)}): "
                           f"{type(e).__name__}: {e}") from e
    lowered = Lowered(artifact.kernel_source, _summarise(artifact), _tma_descriptors(artifact), func, target)
    lowered._artifact = artifact
    if entry_path:
        try:
            os.makedirs(cache_dir, exist_ok=True)
            _write_atomically(entry_path, json.dumps({"kernel_source": lowered.kernel_source,
                                                      "kernels": lowered.kernels, "tma": lowered.tma,
                                                      "files": _file_stamps(lowered.kernel_source)}))
        except OSError:
            pass  # a cache that cannot be written only costs time
    return lowered


def _holds(path: str, text: str) -> bool:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read() == text
    except (OSError, UnicodeDecodeError):
        return False


def store_source(lowered: Lowered, tilelang_dir: str, folder: str, suffix: str = ".cu") -> tuple[str, str]:
    """Writes the generated source (without TileLang's #line directives) and its line map into `folder`
    unless it already holds them; returns their paths."""
    source, line_map = split_line_directives(lowered.kernel_source, tilelang_dir)
    os.makedirs(folder, exist_ok=True)
    paths = os.path.join(folder, "kernel" + suffix), os.path.join(folder, "kernel.lines")
    lines = "".join(f"{gen}\t{py}\n" for gen, py in sorted(line_map.items()))
    for path, text in zip(paths, (source, lines)):
        if not _holds(path, text):  # a folder is never trusted by its name alone: it may hold another kernel
            _write_atomically(path, text)
    return paths


# Bumped when the line map of the same generated source changes (bundle_writer.split_line_directives), so a
# folder written by an earlier version is not reused with its old map.
_LINE_MAP_VERSION = 2


def source_folder(lowered: Lowered, sources_dir: str) -> str:
    """Where a source lives by its content: the same generated code always has the same path, so the
    compiled module of an earlier run (keyed by path and content) serves again."""
    return os.path.join(sources_dir, f"{lowered.digest[:24]}-m{_LINE_MAP_VERSION}")
