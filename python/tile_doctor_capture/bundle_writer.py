"""Turns one lowered TileLang kernel into a tile-doctor bundle (docs/bundle-format.md) on disk."""

from __future__ import annotations

import json
import os
import re

# TVM dtype -> bundle element type
_ELEM_TYPES = {
    "float16": "half", "bfloat16": "bfloat16", "float32": "float", "float64": "double",
    "int8": "int8", "uint8": "uint8", "int16": "int16", "int32": "int32", "uint32": "uint32",
    "int64": "int64", "uint64": "uint64", "bool": "uint8",
    "float8_e4m3fn": "float8_e4m3", "float8_e4m3": "float8_e4m3", "float8_e5m2": "float8_e5m2",
    "float8_e8m0fnu": "float8_e8m0",
    "int4": "int4", "uint4": "uint4",
    # TensorFloat-32: float32 storage the tensor core reads with a 10-bit mantissa (the mma rounds)
    "tfloat32": "float", "custom[tfloat32]": "float",
}

_LINE_DIRECTIVE = re.compile(r'^\s*#line (\d+) "([^"]*)"\s*$')


class CaptureError(Exception):
    """A kernel that cannot become a bundle; the message says why."""


def split_line_directives(source: str, tilelang_dir: str) -> tuple[str, dict[int, str]]:
    """Drops TileLang's #line directives and maps each remaining generated line to the script line that
    produced it. Directives into TileLang's own files (its GEMM macro generators) do not replace the last
    script line, so a line inside an expanded T.gemm still maps to the T.gemm call. Software pipelining
    (T.Pipelined) loses the T.gemm statement's own directive: its expansion then follows the loop's line,
    and is mapped to the one T.gemm call in that loop's body instead (_gemm_in_loop)."""
    out, mapping = [], {}
    current = None
    scripts: dict[str, list[str]] = {}
    for text in source.splitlines():
        m = _LINE_DIRECTIVE.match(text)
        if m:
            line, path = int(m.group(1)), m.group(2)
            if not os.path.abspath(path).startswith(tilelang_dir):
                current = (path, line)
            elif current is not None and _GEMM_OP_FILE.search(path):
                current = _gemm_in_loop(current, scripts)
            continue
        out.append(text)
        if current is not None:
            mapping[len(out)] = f"{current[0]}:{current[1]}"
    return "\n".join(out) + "\n", mapping


def directive_paths(source: str) -> set[str]:
    """The files TileLang's #line directives in `source` name."""
    return {m.group(2) for m in map(_LINE_DIRECTIVE.match, source.splitlines()) if m}


_GEMM_OP_FILE = re.compile(r"/op/gemm/[^/]*\.py$")


def _gemm_in_loop(at: tuple[str, int], scripts: dict[str, list[str]]) -> tuple[str, int]:
    """`at` is a script line a T.gemm expansion follows. Unless it is a T.gemm call itself, the one T.gemm
    call in the block it opens (a pipelined loop's body), else `at` unchanged."""
    path, line = at
    if path not in scripts:
        try:
            with open(path, encoding="utf-8") as f:
                scripts[path] = f.read().splitlines()
        except OSError:
            scripts[path] = []
    lines = scripts[path]
    if not 0 < line <= len(lines) or "T.gemm(" in lines[line - 1]:
        return at
    indent = len(lines[line - 1]) - len(lines[line - 1].lstrip())
    calls = []
    for n in range(line, len(lines)):
        text = lines[n]
        if text.strip() and len(text) - len(text.lstrip()) <= indent:
            break
        if "T.gemm(" in text:
            calls.append(n + 1)
    return (path, calls[0]) if len(calls) == 1 else at


def output_positions(out_idx, n_params: int) -> set[int]:
    """TileLang's out_idx (negative indices count from the end) as parameter positions."""
    return {(i + n_params) % n_params for i in (out_idx or [])}


def expr_text(value) -> str | int:
    """A TVM PrimExpr as a bundle expression (integers stay integers)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        # integer literals and casts TVM writes out (T.int64(511), T.Cast("int64", n)): the values they hold
        text = re.sub(r'T\.u?int(?:8|16|32|64)\((-?\d+)\)', r"\1", str(value))
        text = re.sub(r'T\.Cast\("u?int(?:8|16|32|64)", (\w+)\)', r"\1", text).replace("//", "/")
        if not re.fullmatch(r"[\w\s+\-*/%()]+", text):
            raise CaptureError(f"cannot express '{value}' in a bundle")
        return text


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):  # an inline table
        return "{ " + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v))


def workspaces(prim_func) -> dict:
    """T.alloc_global buffers: global memory the program allocates itself and its kernels share
    (name -> (dtype, shape)); TileLang's host code allocates them uninitialised."""
    from tilelang import tvm
    found = {}

    def visit(node):
        for buf in getattr(node, "alloc_buffers", None) or []:
            if buf.scope() == "global":
                found[buf.name] = (str(buf.dtype), list(buf.shape))

    tvm.tirx.stmt_functor.post_order_visit(prim_func.body, visit)
    return found


def _compile_arch(arch: str) -> str:
    """The architecture the bundle compiles for: Hopper's wgmma and setmaxnreg exist only in sm_90a, which
    TileLang's own nvcc flags name for sm_90 (CUTLASS enables them under __CUDA_ARCH_FEAT_SM90_ALL)."""
    return arch + "a" if arch == "sm_90" else arch


def _tma_table(entry: str, pname: str, how: dict, symbols: dict) -> dict:
    """How the CUDA executor builds the TMA descriptor a kernel takes for a buffer (the manifest's `tma`)."""
    if "unsupported" in how:
        raise CaptureError(f"kernel {entry} takes a TMA descriptor {pname} built by {how['unsupported']}, which "
                           "bundles do not hold (tiled descriptors only); check it with --tilelang-arch sm_80")
    table = {k: v for k, v in how.items() if k != "tensor"}
    for key in ("dims", "strides", "box", "element_strides"):
        for e in table[key]:
            if isinstance(e, str):
                for sym in re.findall(r"[A-Za-z_]\w*", e):
                    symbols.setdefault(sym, None)
    return table


def write_bundles(lowered, prim_func, out_idx, directory: str, index: int, info: dict,
                  launch: dict | None = None) -> list[dict]:
    """Writes one bundle per device kernel of `lowered` (lowering.Lowered) under `directory`; returns their
    descriptions. The bundles name the source and line map at info["source"], info["lines"].
    With `launch` ({"name": folder, "files": [names per device kernel]}) the bundles hold one launch's
    real data: a named buffer starts from data/NAME.npy beside its manifest, the others (outputs the launch
    allocates) as uninitialised memory, and every buffer is an output, since the launch's effect on each
    goes back to the script."""
    buffers = {}  # name -> (dtype, shape, parameter position)
    # A view over a parameter (T.Tensor(shape, dtype, X.data)) shares X's data pointer, and the device
    # kernel's parameter takes the pointer's name: such a parameter is X itself, X's whole tensor.
    by_pointer = {}
    for pos, var in enumerate(prim_func.params):
        if var in prim_func.buffer_map:
            buf = prim_func.buffer_map[var]
            buffers[buf.name] = (str(buf.dtype), list(buf.shape), pos)
            by_pointer[buf.data.name] = buf.name
    for name, (dtype, shape) in workspaces(prim_func).items():
        buffers.setdefault(name, (dtype, shape, None))  # no parameter of the program: a workspace
    outputs = output_positions(out_idx, len(prim_func.params))

    written = []
    for kernel_no, kernel in enumerate(lowered.kernels):
        entry = kernel["entry"]
        name = f"k{index}_{entry}" if kernel_no == 0 else f"k{index}_{kernel_no}_{entry}"
        if launch is not None:
            name = launch["name"] if kernel_no == 0 else f"{launch['name']}_{kernel_no}"
        bundle_dir = os.path.join(directory, name)
        os.makedirs(bundle_dir, exist_ok=True)

        symbols: dict[str, int | None] = {}
        args_toml = []
        for pname, dtype in kernel["params"]:
            if dtype == "handle":
                tma = None
                if pname not in buffers and pname in lowered.tma:  # a Hopper TMA descriptor: the bundle holds its tensor
                    tma = _tma_table(entry, pname, lowered.tma[pname], symbols)
                    pname = lowered.tma[pname]["tensor"]
                if pname not in buffers and pname in by_pointer:
                    pname = by_pointer[pname]
                if pname not in buffers:
                    raise CaptureError(f"kernel {entry}: parameter {pname} is no buffer of the TileLang function")
                bdtype, shape, pos = buffers[pname]
                if bdtype not in _ELEM_TYPES:
                    raise CaptureError(f"kernel {entry}: buffer {pname} has dtype {bdtype}, which bundles do not hold")
                dims = []
                for d in shape:
                    e = expr_text(d)
                    if isinstance(e, str):
                        for sym in re.findall(r"[A-Za-z_]\w*", e):
                            symbols.setdefault(sym, None)
                    dims.append(e)
                is_out = pos in outputs or (not outputs and pos is not None)
                init = "uninit" if pos in outputs or pos is None else (
                    "uniform(-1, 1)" if bdtype.startswith(("float", "bfloat")) else "zeros")
                storage = (launch or {}).get("storage", {}).get(pname)
                if storage is not None:  # a strided view: its storage, at the storage's row pitch
                    dims = storage["shape"]
                if launch is not None:
                    is_out = True
                    init = f'file("data/{pname}.npy")' if pname in launch["files"][kernel_no] else "uninit"
                args_toml.append({"name": pname, "type": _ELEM_TYPES[bdtype] + "*", "shape": dims, "init": init,
                                  "output": is_out})
                if storage is not None:
                    args_toml[-1]["elements"] = storage["elements"]
                if tma is not None:
                    args_toml[-1]["tma"] = tma
            else:
                if dtype not in _ELEM_TYPES:
                    raise CaptureError(f"kernel {entry}: scalar {pname} has dtype {dtype}")
                if dtype.startswith("float"):
                    args_toml.append({"name": pname, "type": _ELEM_TYPES[dtype], "value": info["floats"].get(pname, 1.0)})
                else:
                    symbols.setdefault(pname, None)
                    args_toml.append({"name": pname, "type": _ELEM_TYPES[dtype], "value": pname})

        grid, block, shared = kernel["grid"], kernel["block"], kernel["shared"]
        for e in grid + block + [shared]:
            if isinstance(e, str):
                for sym in re.findall(r"[A-Za-z_]\w*", e):
                    symbols.setdefault(sym, None)

        unresolved = [s for s in symbols if s not in info["params"]]
        lines = [
            f"# Captured by tile-doctor from {info['where']} (TileLang {info['tilelang_version']}, {info['arch']}).",
            "# Edit and re-run with: tile-doctor check bundle.toml",
            "[kernel]",
            f"source = {_toml_value(info['source'])}",
            f"entry = {_toml_value(entry)}",
            'headers = "cuda"',
        ]
        if info.get("lowering", "cuda") != "cuda":
            lines += [f"# {info['lowering_text']}", f"dialect = {_toml_value(info['lowering'])}"]
        lines += [
            f"arch = {_toml_value(_compile_arch(info['arch']))}",
            f"include = {_toml_value(info['include'])}",
        ]
        if info.get("lowering", "cuda") == "cuda":
            # CUTLASS only declares its fp8 types after cuda_fp8.h, and enables its sm_89 fp8 mma.sync, under
            # nvcc's version macros, which clang lacks (its __CUDA_ARCH__ >= 890 gate still applies).
            lines.append('flags = ["-include", "cuda_fp8.h", "-DCUTE_ARCH_MMA_F32_SM89_SUPPORTED", '
                         '"-DCUTE_ARCH_MMA_F16_SM89_SUPPORTED"]')
        lines += [f"line_map = {_toml_value(info['lines'])}", ""]
        if symbols:
            lines.append("[params]")
            for s in symbols:
                if s in info["params"]:
                    lines.append(f"{s} = {info['params'][s]}")
                else:
                    lines.append(f"# {s}: symbolic in the TileLang program; give it with --param {s}=VALUE")
            lines.append("")
        lines += ["[launch]", f"grid = {_toml_value(grid)}", f"block = {_toml_value(block)}",
                  f"shared = {_toml_value(shared)}"]
        lines.append("")
        for a in args_toml:
            lines.append("[[args]]")
            lines += [f"{k} = {_toml_value(v)}" for k, v in a.items()]
            lines.append("")
        with open(os.path.join(bundle_dir, "bundle.toml"), "w") as f:
            f.write("\n".join(lines))
        written.append({"bundle": os.path.join(bundle_dir, "bundle.toml"), "entry": entry, "from": info["where"],
                        "unresolved": unresolved, "buffers": [a["name"] for a in args_toml if "shape" in a]})
    if not written:
        raise CaptureError("TileLang produced no device kernel")
    return written
