"""tile-doctor from Python.

    import tile_doctor
    tile_doctor.find_executable()               # where the tile-doctor executable is
    tile_doctor.run(["check", "kernel.py"])      # runs it; returns its exit code
    with tile_doctor.checking(checks="all") as run:   # every TileLang launch in the block checked
        ...
    run.raise_for_findings()
    run = tile_doctor.check(kernel, a, b)           # one launch of a kernel compiled before, checked

`python -m tile_doctor ARGS` is `tile-doctor ARGS`.
"""

from tile_doctor._executable import ExecutableNotFound, find_executable, run
from tile_doctor.inprocess import (CheckingFailed, Finding, FindingsError, Place, Run, check, checking,
                                  use_host_memory_without_gpu)

__all__ = ["CheckingFailed", "ExecutableNotFound", "Finding", "FindingsError", "Place", "Run", "check", "checking",
           "find_executable", "run", "use_host_memory_without_gpu"]
