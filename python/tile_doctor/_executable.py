"""Finding the tile-doctor executable: $TILE_DOCTOR_BIN where set (it must then be there), else the one a
self-contained wheel carries (scripts/build-wheel.sh puts it in tile_doctor/_bundled/), else `tile-doctor` on
PATH."""

from __future__ import annotations

import os
import shutil
import subprocess
from typing import Optional, Sequence


class ExecutableNotFound(RuntimeError):
    """No tile-doctor executable where the package looks for one."""


def bundled_executable() -> Optional[str]:
    """The executable inside this package when it was installed from the self-contained wheel, else None."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bundled", "tile-doctor")
    return path if os.path.isfile(path) and os.access(path, os.X_OK) else None


def find_executable() -> str:
    """The executable's path; raises ExecutableNotFound saying where it looked."""
    named = os.environ.get("TILE_DOCTOR_BIN")
    if named:
        if os.path.isfile(named) and os.access(named, os.X_OK):
            return os.path.abspath(named)
        raise ExecutableNotFound(f"TILE_DOCTOR_BIN={named} is not an executable file")
    found = bundled_executable() or shutil.which("tile-doctor")
    if found:
        return found
    raise ExecutableNotFound("no tile-doctor executable: set TILE_DOCTOR_BIN to it, or put it on PATH "
                             "(scripts/build.sh builds it as build/tile-doctor)")


def run(args: Sequence[str], check: bool = False, cwd: Optional[str] = None) -> int:
    """Runs `tile-doctor ARGS` and returns its exit code (docs/guide-check.md lists them); with check=True a
    nonzero code raises subprocess.CalledProcessError."""
    command = [find_executable(), *args]
    code = subprocess.call(command, cwd=cwd)
    if check and code != 0:
        raise subprocess.CalledProcessError(code, command)
    return code
