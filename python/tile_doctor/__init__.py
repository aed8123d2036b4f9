"""tile-doctor from Python.

    import tile_doctor
    tile_doctor.find_executable()               # where the tile-doctor executable is
    tile_doctor.run(["check", "kernel.py"])      # runs it; returns its exit code

`python -m tile_doctor ARGS` is `tile-doctor ARGS`.
"""

from tile_doctor._executable import ExecutableNotFound, find_executable, run

__all__ = ["ExecutableNotFound", "find_executable", "run"]
