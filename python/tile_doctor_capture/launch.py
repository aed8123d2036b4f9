"""One launch of a TileLang kernel inside a running script: the call's arguments become a bundle with the
real data, tile-doctor runs it, and the buffers come back into the script's tensors — so the script goes
on as it would on a GPU."""

from __future__ import annotations

import os

import numpy as np
import torch

from tile_doctor_capture import channel
from tile_doctor_capture.bundle_writer import CaptureError, output_positions, workspaces

# TVM dtype -> torch dtype of the tensors a launch allocates
_TORCH_DTYPES = {
    "float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64,
    "int8": torch.int8, "uint8": torch.uint8, "int16": torch.int16, "int32": torch.int32, "int64": torch.int64,
    "uint32": torch.uint32, "uint64": torch.uint64, "bool": torch.bool,
    "float8_e4m3fn": torch.float8_e4m3fn, "float8_e4m3": torch.float8_e4m3fn, "float8_e5m2": torch.float8_e5m2,
    "float8_e8m0fnu": torch.float8_e8m0fnu,
    "tfloat32": torch.float32, "custom[tfloat32]": torch.float32,
}
_RAW_BYTES = (torch.float8_e4m3fn, torch.float8_e5m2, torch.float8_e8m0fnu)  # numpy has no fp8: their bits travel as uint8
# 4-bit buffers travel packed two to a byte, as PyTorch code holds them: int8/uint8, the last dimension halved
_PACKED = {"int4": torch.int8, "uint4": torch.uint8}


class LaunchFailed(RuntimeError):
    """Raised into the script where a kernel launch could not run under tile-doctor (the report says why)."""


def _to_numpy(t: torch.Tensor) -> np.ndarray:
    t = t.detach().to("cpu").contiguous()
    if t.dtype == torch.bfloat16:  # numpy has no bfloat16: raw bits, as tile-doctor reads them
        return t.view(torch.int16).numpy().view(np.uint16)
    if t.dtype == torch.bool:
        return t.to(torch.uint8).numpy()
    if t.dtype in _RAW_BYTES:
        return t.view(torch.uint8).numpy()
    return t.numpy()


def _from_numpy(a: np.ndarray, like: torch.Tensor) -> torch.Tensor:
    if like.dtype == torch.bfloat16:
        return torch.from_numpy(a.view(np.int16).copy()).view(torch.bfloat16)
    if like.dtype in _RAW_BYTES:
        return torch.from_numpy(a.view(np.uint8).copy()).view(like.dtype)
    return torch.from_numpy(a.copy()).to(like.dtype)


class StorageView:
    """A strided argument as the GPU sees it: the storage from the view's first element to the storage's end,
    indexed as `shape` (the view's rows at the storage's row pitch, so coordinates stay the kernel's own)."""

    def __init__(self, tensor: torch.Tensor):
        sizes, strides = list(tensor.shape), list(tensor.stride())
        # a dimension of extent 1 has any stride: give it the one a packed layout would
        for i in reversed(range(len(sizes))):
            if sizes[i] == 1:
                strides[i] = strides[i + 1] * sizes[i + 1] if i + 1 < len(sizes) else 1
        self.elements = tensor.untyped_storage().nbytes() // tensor.element_size() - tensor.storage_offset()
        self.shape = [sizes[0]] if sizes else [1]
        for i in range(1, len(sizes)):
            if strides[i - 1] % strides[i] or strides[i - 1] // strides[i] < sizes[i]:
                self.shape = [self.elements]  # transposed or overlapping: storage order, coordinates flat
                break
            self.shape.append(strides[i - 1] // strides[i])
        else:
            if sizes and strides[-1] != 1:
                self.shape.append(strides[-1])
        self.tensor = tensor

    def flat(self) -> torch.Tensor:
        """The storage span as a one-dimensional view sharing the tensor's memory."""
        t = self.tensor
        return t.as_strided((self.elements,), (1,), t.storage_offset())


def storage_views(func, by_name: dict) -> dict[str, StorageView]:
    """The arguments declared T.StridedTensor and called with a non-contiguous view: they keep their storage."""
    views = {}
    for name, (value, var) in by_name.items():
        if var is None or not isinstance(value, torch.Tensor) or value.is_contiguous() or value.dim() == 0:
            continue
        buf = func.buffer_map[var]
        if len(buf.strides) and str(buf.dtype) not in _PACKED:
            views[name] = StorageView(value)
    return views


def _symbol(dim) -> str | None:
    """The name of a symbolic dimension (a TIR variable), None for a constant one."""
    try:
        int(dim)
        return None
    except (TypeError, ValueError):
        return getattr(dim, "name", str(dim))


def _shape_of(name: str, shape, symbols: dict) -> list[int]:
    """A buffer's extents, its symbolic ones from the call."""
    dims = []
    for d in shape:
        sym = _symbol(d)
        if sym is not None and sym not in symbols:
            raise CaptureError(f"{name} has dimension {d}, which no input of the call gives")
        dims.append(int(d) if sym is None else symbols[sym])
    return dims


def _describe(value) -> str:
    if isinstance(value, torch.Tensor):
        return f"{str(value.dtype).replace('torch.', '')}{list(value.shape)}"
    return repr(value)


def assemble(kernel, args) -> tuple[list, set[int], dict]:
    """The full parameter list of a call: the inputs it passed and the outputs (out_idx) allocated like
    TileLang's adapter does (torch.empty on the inputs' device). Returns (values, allocated positions,
    symbol values)."""
    func = kernel.prim_func
    n = len(func.params)
    outputs = output_positions(kernel.out_idx, n)
    inputs = [i for i in range(n) if i not in outputs]
    if len(args) != len(inputs):
        raise TypeError(f"kernel {kernel.entry} takes {len(inputs)} inputs, the call passes {len(args)}")
    values: list = [None] * n
    symbols: dict[str, int] = {}
    device = None
    for pos, value in zip(inputs, args):
        values[pos] = value
        var = func.params[pos]
        if var in func.buffer_map and isinstance(value, torch.Tensor):
            device = device or value.device
            extents = list(value.shape)
            if str(func.buffer_map[var].dtype) in _PACKED and extents:
                extents[-1] *= 2  # two elements a byte
            for dim, extent in zip(func.buffer_map[var].shape, extents):
                if (sym := _symbol(dim)) is not None:
                    symbols.setdefault(sym, int(extent))
            declared = func.buffer_map[var].strides  # T.StridedTensor: its symbols, and its constants checked
            packed = str(func.buffer_map[var].dtype) in _PACKED
            for axis, (dim, stride) in enumerate(zip(declared, value.stride())):
                if packed and stride != 1:  # torch counts bytes, the kernel elements, two a byte
                    stride *= 2
                if (sym := _symbol(dim)) is not None:
                    symbols.setdefault(sym, int(stride))
                elif int(dim) != stride and value.shape[axis] > 1:  # TileLang's host code refuses it too
                    raise ValueError(f"kernel {kernel.entry}: {func.buffer_map[var].name} was compiled for strides "
                                     f"{[str(d) for d in declared]}; the call passes a tensor with strides "
                                     f"{list(value.stride())}")
        elif var not in func.buffer_map and isinstance(value, (int, bool)) and not isinstance(value, float):
            symbols.setdefault(var.name, int(value))
    for pos in sorted(outputs):
        buf = func.buffer_map[func.params[pos]]
        dtype = _TORCH_DTYPES.get(str(buf.dtype), _PACKED.get(str(buf.dtype)))
        if dtype is None:
            raise CaptureError(f"the output {buf.name} has dtype {buf.dtype}, which tile-doctor cannot allocate")
        dims = _shape_of(f"the output {buf.name}", buf.shape, symbols)
        if str(buf.dtype) in _PACKED and dims:
            dims[-1] = (dims[-1] + 1) // 2
        values[pos] = torch.empty(*dims, dtype=dtype, device=device or "cpu")
    return values, outputs, symbols


def run(capture, kernel, args, where: str):
    """Runs one call of a stand-in kernel under tile-doctor and returns what TileLang's adapter would."""
    try:
        return _run(capture, kernel, args, where)
    finally:
        if capture.timeline is not None:  # the launch is over, failed or not: the script's tensors count again
            capture.timeline.launched()


def _run(capture, kernel, args, where: str):
    values, allocated, symbols = assemble(kernel, args)
    func = kernel.prim_func
    number = capture.next_launch()
    if capture.timeline is not None:
        capture.timeline.launch(number, where)
    by_name = {}
    floats = {}
    for var, value in zip(func.params, values):
        if var in func.buffer_map:
            by_name[func.buffer_map[var].name] = (value, var)
        elif isinstance(value, float):
            floats[var.name] = value
    device = next((v.device for v, _ in by_name.values() if isinstance(v, torch.Tensor)), "cpu")
    for name, (dtype, shape) in workspaces(func).items():  # T.alloc_global: one per launch, shared by its kernels
        if name not in by_name and str(dtype) in _TORCH_DTYPES:
            dims = _shape_of(f"the workspace {name}", shape, symbols)
            by_name[name] = (torch.empty(*dims, dtype=_TORCH_DTYPES[str(dtype)], device=device), None)
    shapes = {name: _describe(v) for name, (v, _) in by_name.items()}
    scalars = {var.name: v for var, v in zip(func.params, values) if var not in func.buffer_map}
    # the same generated source with the same shapes and scalars is the same launch, whichever compile made it
    key = repr((kernel.lowered.digest, sorted(shapes.items()), sorted((k, repr(v)) for k, v in scalars.items())))
    params = dict(kernel.info["params"], **{k: str(v) for k, v in symbols.items()})
    info = dict(kernel.info, params=params, floats=floats)
    name = f"launch{number}"
    tensors = {n for n, (v, _) in by_name.items() if isinstance(v, torch.Tensor)}
    fresh = {func.buffer_map[func.params[i]].name for i in allocated} | {n for n, (_, var) in by_name.items() if var is None}
    # the first device kernel starts the allocated outputs uninitialised; later ones see what it wrote
    files = [tensors - fresh] + [tensors] * (len(kernel.entries) - 1)
    views = storage_views(func, by_name)
    storage = {n: {"shape": v.shape, "elements": v.elements} for n, v in views.items()}
    bundles = capture.write_launch_bundles(kernel, info, {"name": name, "files": files, "storage": storage})
    for part, written in enumerate(bundles):
        folder = os.path.dirname(written["bundle"])
        os.makedirs(os.path.join(folder, "data"), exist_ok=True)
        for buf_name in files[part]:
            value = views[buf_name].flat() if buf_name in views else by_name[buf_name][0]
            np.save(os.path.join(folder, "data", buf_name + ".npy"), _to_numpy(value))
        out_dir = os.path.join(folder, "outputs")
        reply = channel.request(channel.launch_request(
            launch=number, part=part, parts=len(bundles), kernel=kernel.index, entry=written["entry"],
            bundle=written["bundle"], compiled_at=kernel.info["where"], called_at=where, shapes=shapes,
            scalars={k: repr(v) for k, v in scalars.items()}, key=key, outputs=out_dir,
            unresolved=written["unresolved"]))
        if not reply.get("ran"):
            raise LaunchFailed(f"tile-doctor could not run kernel {written['entry']} at {where}: "
                               f"{reply.get('message', '')}")
        for buf_name in tensors:
            path = os.path.join(out_dir, buf_name + ".npy")
            if os.path.exists(path):
                value = views[buf_name].flat() if buf_name in views else by_name[buf_name][0]
                value.copy_(_from_numpy(np.load(path), value).reshape(value.shape))
    result = [values[i] for i in sorted(allocated)]
    if not result:
        return None
    return result[0] if len(result) == 1 else result
