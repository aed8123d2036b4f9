"""Checking inside a running Python process: every TileLang kernel compiled and launched inside

    with tile_doctor.checking(target="nvidia-h200", checks="all") as run:
        kernel = tilelang.compile(program, out_idx=[1])
        kernel(a)
    run.raise_for_findings()

is checked by a `tile-doctor serve` this process starts (docs/guide-python.md): the capture package's hooks
(python/tile_doctor_capture) are installed for the block and taken out after it, and its launches travel
on two pipes as they do under `tile-doctor check kernel.py` (docs/capture-channel.md). The report is read
when the block ends: `run.findings`, `run.report`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Iterator, Optional, Sequence

from tile_doctor._executable import find_executable


@dataclasses.dataclass
class Place:
    """A source place: the kernel's file and line, and the TileLang line that generated it."""
    file: str = ""
    line: int = 0
    column: int = 0
    function: str = ""
    python: str = ""

    def __str__(self) -> str:
        text = f"{self.file}:{self.line}" + (f":{self.column}" if self.column else "")
        return text + (f" (from {self.python})" if self.python else "")


@dataclasses.dataclass
class Finding:
    """One finding of the report (docs/report-format.md): `kind` is also its rule's name (`tile-doctor rules`)."""
    kind: str
    severity: str
    family: str
    message: str
    fatal: bool
    count: int
    place: Optional[Place]
    called_at: str  # the script line of the launch it came from ("" for a kernel never launched)
    buffer: str
    raw: dict  # the report's own object, every field

    @property
    def rule(self) -> str:
        return self.kind

    @property
    def python_lines(self) -> list[str]:
        """The TileLang line that generated the place, then the line of the launch."""
        return [x for x in (self.place.python if self.place else "", self.called_at) if x]

    def __str__(self) -> str:
        where = f" at {self.place}" if self.place else ""
        launched = f", launched at {self.called_at}" if self.called_at else ""
        return f"{self.severity} {self.kind}{where}{launched}: {self.message}"


class FindingsError(AssertionError):
    """raise_for_findings: the checks found something (an AssertionError, so test runners show it as a failure)."""

    def __init__(self, findings: Sequence[Finding]):
        self.findings = list(findings)
        lines = [f"tile-doctor found {len(self.findings)} problem{'s' if len(self.findings) != 1 else ''}:"]
        lines += [f"  {f}" for f in self.findings]
        super().__init__("\n".join(lines))


class CheckingFailed(RuntimeError):
    """tile-doctor could not check the block's launches (its exit code and message): no report to read."""


class Run:
    """What one `checking` block found; filled in when the block ends."""

    def __init__(self):
        self.findings: list[Finding] = []
        self.report: Optional[dict] = None
        self.exit_code: Optional[int] = None
        self.launches = 0  # launches the block made
        self.result = None  # check(): what the kernel call returned

    def raise_for_findings(self, severity: Sequence[str] = ("error",)) -> None:
        """Raises FindingsError when a finding of one of these severities was reported."""
        bad = [f for f in self.findings if f.severity in severity]
        if bad:
            raise FindingsError(bad)


def _cache_dir() -> str:
    """tile-doctor's cache folder, found as the executable finds it (frontend/cache_files.cpp: cacheDir)."""
    named = os.environ.get("TILE_DOCTOR_CACHE", "")
    if named == "off":
        return ""
    folder = named or (os.path.join(os.environ["XDG_CACHE_HOME"], "tile-doctor") if os.environ.get("XDG_CACHE_HOME")
                       else os.path.join(os.path.expanduser("~"), ".cache", "tile-doctor"))
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return ""
    return folder


def _caller_file(depth: int) -> str:
    frame = sys._getframe(depth)
    name = frame.f_code.co_filename
    return os.path.abspath(name) if os.path.exists(name) else "python"


_severities: dict[str, tuple[str, str]] = {}


def _rules(exe: str) -> dict[str, tuple[str, str]]:
    """kind -> (severity, family), from `tile-doctor rules --format json`, once per process."""
    if not _severities:
        listing = json.loads(subprocess.run([exe, "rules", "--format", "json"], check=True, capture_output=True,
                                            text=True).stdout)
        for r in listing["rules"]:
            _severities[r["id"] if "id" in r else r["kind"]] = (r.get("severity", "error"), r.get("family", ""))
    return _severities


_targets: dict = {}


def _profile(exe: str, target: Optional[str], arch: str) -> dict:
    if exe not in _targets:  # once per process (the pytest plugin enters a block per test)
        _targets[exe] = json.loads(subprocess.run([exe, "targets", "--format", "json"], check=True,
                                                  capture_output=True, text=True).stdout)
    listing = _targets[exe]
    name = target or listing["default"]
    if name not in listing["targets"]:
        raise ValueError(f"no target profile {name!r}: one of {', '.join(sorted(listing['targets']))}")
    from tile_doctor_capture.target_profile import with_capability
    return with_capability(dict(listing["targets"][name]), arch)


class _Patches:
    """The attributes the capture's hooks replace, kept to be put back when the block ends."""
    _NAMES = [("tilelang", "compile"), ("tilelang.jit", "compile"), ("tilelang.jit.kernel.JITKernel", "__new__"),
              ("tilelang.profiler", "do_bench"), ("tilelang.profiler.Profiler", "do_bench"),
              ("tilelang.profiler.bench", "do_bench"), ("tilelang.autotuner.tuner.AutoTuner", "run")]

    def __init__(self):
        self.saved = []
        for path, attr in self._NAMES:
            owner = self._resolve(path)
            if owner is not None:
                self.saved.append((owner, attr, owner.__dict__.get(attr, _MISSING) if isinstance(owner, type)
                                   else getattr(owner, attr, _MISSING)))

    @staticmethod
    def _resolve(path: str):
        parts = path.split(".")
        for cut in range(len(parts), 0, -1):
            module = sys.modules.get(".".join(parts[:cut]))
            if module is None:
                continue
            obj = module
            for p in parts[cut:]:
                obj = getattr(obj, p, None)
            return obj
        return None

    def restore(self) -> None:
        for owner, attr, value in self.saved:
            if value is _MISSING and attr == "__new__":
                # Deleting an assigned __new__ leaves CPython (before 3.12) calling object.__new__ with the
                # constructor's arguments, a TypeError: put back one that takes and drops them.
                owner.__new__ = _construct_plainly
            elif value is _MISSING:
                with contextlib.suppress(AttributeError, TypeError):
                    delattr(owner, attr)
            else:
                setattr(owner, attr, value)


_MISSING = object()


def _construct_plainly(cls, *args, **kwargs):
    return object.__new__(cls)


def _findings_of(report: dict, rules: dict) -> list[Finding]:
    found = []
    groups = [(l.get("called_at", ""), l.get("report") or {}) for l in report.get("launches", [])]
    groups += [("", k.get("report") or {}) for k in report.get("kernels", [])]
    for called_at, r in groups:
        for f in r.get("findings", []):
            loc = f.get("location")
            place = Place(loc.get("file", ""), loc.get("line", 0), loc.get("column", 0), loc.get("function", ""),
                          loc.get("python", "")) if loc else None
            severity, family = rules.get(f["kind"], ("error", ""))
            found.append(Finding(f["kind"], severity, family, f.get("message", ""), bool(f.get("fatal")),
                                 int(f.get("count", 1)), place, called_at, f.get("buffer", ""), f))
    return found


def use_host_memory_without_gpu(target: Optional[str] = None, profile: Optional[dict] = None,
                                arch: str = "sm_80") -> bool:
    """Without a usable GPU: from now on the process's CUDA tensors live in host memory and torch.cuda's and
    TVM's device queries are answered from the target's profile (as under `tile-doctor check kernel.py`), so
    that `torch.cuda.is_available()` skips nothing. True when that is (now) so; with a GPU, False."""
    import torch
    from tile_doctor_capture import host_device
    if host_device.active():
        return True
    if torch.cuda.is_available():
        return False
    if profile is None:
        profile = _profile(find_executable(), target, arch)
    host_device.install(profile)
    import tilelang  # noqa: F401  (puts its TVM on the path)
    host_device.answer_tvm_device_queries(profile)
    return True


@contextlib.contextmanager
def checking(target: Optional[str] = None, checks: Optional[str] = None, executor: Optional[str] = None, *,
             lowering: str = "auto", arch: str = "sm_80", args: Sequence[str] = (), script: Optional[str] = None,
             timeout: float = 3600.0) -> Iterator[Run]:
    """Checks every TileLang kernel compiled and launched inside the block (docs/guide-python.md).

    target, checks, executor: as `tile-doctor check` takes them (None: its defaults); args: further check
    options (["--launches", "all"], ["--format", ...] is not one: the report is read here). Kernels compiled
    before the block are not seen: compile inside it. Without a GPU the process's CUDA tensors live in host
    memory from the first block on (as under `tile-doctor check kernel.py`): create them inside or after it."""
    exe = find_executable()
    script = script or _caller_file(3)  # past contextlib's __enter__
    profile = _profile(exe, target, arch)
    rules = _rules(exe)
    folder = tempfile.mkdtemp(prefix="tile-doctor-checking-")
    report_path = os.path.join(folder, "report.json")
    request_read, request_write = os.pipe()
    reply_read, reply_write = os.pipe()
    command = [exe, "serve", "--channel", f"{request_read},{reply_write}", "--capture-dir", folder, "--script", script,
               "--format", "json", "--out", report_path]
    for option, value in (("--target", target), ("--checks", checks), ("--executor", executor)):
        if value:
            command += [option, value]
    command += list(args)
    server = subprocess.Popen(command, pass_fds=(request_read, reply_write), stdout=sys.stderr)
    os.close(request_read)
    os.close(reply_write)
    from tile_doctor_capture import capture_file, channel
    channel.use(os.fdopen(reply_read, "r", encoding="utf-8"), os.fdopen(request_write, "w", encoding="utf-8"))
    run = Run()
    result = capture_file.new_record(script)
    cache_setting = os.environ.get("TILELANG_DISABLE_CACHE")
    os.environ["TILELANG_DISABLE_CACHE"] = "1"  # a cached kernel would skip the compile step
    patches = None
    capture = None
    code, where, why = 0, "", ""
    try:
        result["host_device"] = use_host_memory_without_gpu(target, profile)
        import tilelang  # noqa: F401
        import tilelang.autotuner.tuner  # noqa: F401  (its AutoTuner is patched and restored)
        patches = _Patches()
        from tile_doctor_capture import hooks
        # Sources by content in tile-doctor's cache, as under `check kernel.py`: a kernel kept past the block (a
        # @tilelang.jit cache) still finds its source in a later block.
        capture = hooks.install(folder, arch, {}, script, "first", _cache_dir(), False, lowering,
                                int(profile.get("warp_size", 32)))
        result["tilelang_version"], result["lowering"] = capture.tilelang_version, capture.lowering_text
        yield run
    except BaseException as e:  # the block's own failure: recorded as the script's, then raised on
        where = capture_file.script_frame(e.__traceback__, script)
        code, why = 1, f"{type(e).__name__}: {e}".splitlines()[0]
        raise
    finally:
        capture_file.finish(result, capture, code, where, why)
        capture_file.save(result, folder)
        run.launches = capture.launches if capture is not None else 0
        channel.close()
        if capture is not None:
            from tile_doctor_capture import hooks
            hooks.deactivate()
        if patches is not None:
            patches.restore()
        if cache_setting is None:
            os.environ.pop("TILELANG_DISABLE_CACHE", None)
        else:
            os.environ["TILELANG_DISABLE_CACHE"] = cache_setting
        try:
            run.exit_code = server.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            server.kill()
            run.exit_code = server.wait()
        try:
            with open(report_path) as f:
                run.report = json.load(f)
        except (OSError, ValueError):
            run.report = None
        shutil.rmtree(folder, ignore_errors=True)
    if run.report is None:
        raise CheckingFailed(f"tile-doctor serve exited with {run.exit_code} and wrote no report")
    if "error" in run.report and "launches" not in run.report:
        raise CheckingFailed(f"tile-doctor could not check the block (exit {run.exit_code}): "
                             f"{run.report['error'].get('message', run.report['error'])}")
    run.findings = _findings_of(run.report, rules)


def check(kernel, *args, target: Optional[str] = None, checks: Optional[str] = None, executor: Optional[str] = None,
          out_idx=None, **options) -> Run:
    """One launch checked: `kernel(*args)` inside a `checking` block; returns its Run, with the kernel's return
    value as run.result. `kernel` may be a kernel TileLang compiled before (a JITKernel: compiled again here,
    from its PrimFunc, with its outputs and pass configs, since the block sees only what is compiled inside
    it), a PrimFunc (compiled here, `out_idx` as tilelang.compile takes it), a kernel compiled inside an
    earlier block, or any callable that compiles and launches (a @tilelang.jit function). The other keywords
    are checking()'s. Without a GPU, make the tensors after use_host_memory_without_gpu()."""
    with checking(target, checks, executor, script=options.pop("script", None) or _caller_file(2), **options) as run:
        run.result = _launchable(kernel, out_idx)(*args)
    return run


def _launchable(kernel, out_idx):
    """What check() calls: a kernel compiled outside the block is compiled again through the capture."""
    from tile_doctor_capture import hooks
    compile_step = sys.modules["tilelang.jit"].compile  # the capture's, while the block runs
    if isinstance(kernel, hooks.StandInKernel) or not hasattr(kernel, "attrs") and not hasattr(kernel, "prim_func"):
        return kernel
    if hasattr(kernel, "prim_func"):  # a JITKernel
        adapter = getattr(kernel, "adapter", None)
        outputs = out_idx if out_idx is not None else getattr(adapter, "result_idx", None) or None
        configs = dict(getattr(kernel, "pass_configs", None) or {})
        return compile_step(kernel.prim_func, out_idx=outputs, pass_configs=configs)
    return compile_step(kernel, out_idx=out_idx)  # a PrimFunc
