"""pytest --tile-doctor[=CHECKS]: every TileLang kernel a test compiles and launches is checked with the test's
own tensors (tile_doctor.checking around the test's call, docs/guide-python.md); a finding fails the test with
the report — the kernel's line, the TileLang line, the launch's line and the test's — after the test's own
assertions ran. Registered through the package's `pytest11` entry point (or `-p tile_doctor.pytest_plugin`).
Works with -x, -k and pytest-xdist's -n (each worker checks its own tests). --tile-doctor-sarif and
--tile-doctor-junit write tile-doctor's own reports of the whole session, one SARIF log and one JUnit file
(session_reports.py)."""

from __future__ import annotations

import importlib.util
import os

import pytest

from tile_doctor import session_reports
from tile_doctor.inprocess import FindingsError, checking, use_host_memory_without_gpu


def pytest_addoption(parser):
    group = parser.getgroup("tile-doctor", "tile-doctor: check the TileLang kernels each test launches")
    group.addoption("--tile-doctor", nargs="?", const="all", default=None, metavar="CHECKS",
                    help="check every TileLang launch of each test; CHECKS as `tile-doctor check --checks` (default all)")
    group.addoption("--tile-doctor-target", default=None, help="the target profile (tile-doctor targets)")
    group.addoption("--tile-doctor-executor", default=None, help="cpu, cuda or auto (tile-doctor check --executor)")
    group.addoption("--tile-doctor-db", default=None,
                    help="record each test's check in this SQLite history (tile-doctor history reads it)")
    group.addoption("--tile-doctor-reports", default=None, metavar="DIR",
                    help="write each checked test's JSON report into DIR (one file per test)")
    group.addoption("--tile-doctor-sarif", default=None, metavar="FILE",
                    help="write the session's findings as one SARIF 2.1.0 log (a run per checked test)")
    group.addoption("--tile-doctor-junit", default=None, metavar="FILE",
                    help="write tile-doctor's JUnit XML of the session (a testsuite per checked test)")
    group.addoption("--tile-doctor-args", default="", help="further `tile-doctor check` options, space-separated")


def _enabled(config) -> bool:
    return config.getoption("--tile-doctor") is not None


def _session_reports(config):
    """(format, file) for each of --tile-doctor-sarif / -junit given."""
    return [(fmt, config.getoption(f"--tile-doctor-{fmt}")) for fmt in session_reports.FORMATS
            if config.getoption(f"--tile-doctor-{fmt}")]


def _is_worker(config) -> bool:
    return hasattr(config, "workerinput")  # a pytest-xdist worker; the controller folds the parts


def pytest_configure(config):
    if _enabled(config):
        if not _is_worker(config):
            for _, target in _session_reports(config):
                session_reports.start(target)
        config.addinivalue_line("markers", "tile_doctor_skip: run this test without tile-doctor's checks")
        # Before collection: a test file's `requires_cuda` / `skipif(not torch.cuda.is_available())` is decided
        # when it is imported, and on a machine without a GPU its kernels run in host memory.
        if importlib.util.find_spec("torch") and importlib.util.find_spec("tilelang"):  # else nothing to run
            use_host_memory_without_gpu(config.getoption("--tile-doctor-target"))


def pytest_sessionfinish(session):
    config = session.config
    if _enabled(config) and not _is_worker(config):
        for fmt, target in _session_reports(config):
            session_reports.finish(target, fmt)


def pytest_report_header(config):
    if _enabled(config):
        return f"tile-doctor: checks {config.getoption('--tile-doctor')} on every TileLang launch"
    return None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    __tracebackhide__ = True  # the failure is the test's: pytest shows its frames, not this hook's
    config = item.config
    if not _enabled(config) or item.get_closest_marker("tile_doctor_skip"):
        return (yield)
    args = config.getoption("--tile-doctor-args").split()
    if config.getoption("--tile-doctor-db"):
        args += ["--db", config.getoption("--tile-doctor-db")]
    parts = [(fmt, session_reports.part_path(target, fmt, item.nodeid)) for fmt, target in _session_reports(config)]
    for fmt, path in parts:
        args += ["--report", f"{fmt}:{path}"]
    error = None
    with checking(target=config.getoption("--tile-doctor-target"), checks=config.getoption("--tile-doctor"),
                  executor=config.getoption("--tile-doctor-executor"), args=args, script=str(item.path)) as run:
        try:
            result = yield
        except BaseException as e:  # the test's own failure: still reported, with what the checks found
            error = e
    reports = config.getoption("--tile-doctor-reports")
    if reports and run.report is not None:
        import json
        os.makedirs(reports, exist_ok=True)
        with open(os.path.join(reports, session_reports.file_name(item.nodeid) + ".json"), "w") as f:
            json.dump(run.report, f, indent=1)
    for fmt, path in parts:
        session_reports.name_part(fmt, path, item.nodeid)
    errors = [f for f in run.findings if f.severity == "error"]
    if errors:
        _, line, _ = item.location
        failure = FindingsError(errors)
        failure.args = (f"{failure.args[0]}\n  in test {item.nodeid} ({item.path}:{(line or 0) + 1})",)
        if error is not None:
            raise failure from error
        raise failure
    if error is not None:
        raise error
    return result
