"""python -m tile_doctor ARGS (and the wheel's `tile-doctor` command): runs `tile-doctor ARGS` in this process's
place; `check kernel.py` runs the script with this Python unless $TILE_DOCTOR_PYTHON names another."""

import os
import sys

from tile_doctor._executable import ExecutableNotFound, find_executable


def main() -> None:
    try:
        executable = find_executable()
    except ExecutableNotFound as e:
        print(f"tile-doctor: {e}", file=sys.stderr)
        sys.exit(2)
    os.environ.setdefault("TILE_DOCTOR_PYTHON", sys.executable)  # the environment the package is installed in
    os.execv(executable, [executable, *sys.argv[1:]])


if __name__ == "__main__":
    main()
