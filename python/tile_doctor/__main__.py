"""python -m tile_doctor ARGS: runs `tile-doctor ARGS` in this process's place."""

import os
import sys

from tile_doctor._executable import ExecutableNotFound, find_executable


def main() -> None:
    try:
        executable = find_executable()
    except ExecutableNotFound as e:
        print(f"tile-doctor: {e}", file=sys.stderr)
        sys.exit(2)
    os.execv(executable, [executable, *sys.argv[1:]])


if __name__ == "__main__":
    main()
