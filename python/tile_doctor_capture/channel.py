"""The line of JSON messages between the script's process and the tile-doctor process that started it
(two pipes whose descriptors arrive in $TILE_DOCTOR_CHANNEL as "READ,WRITE")."""

from __future__ import annotations

import json
import os

_files = None


def _open():
    global _files
    if _files is None:
        spec = os.environ.get("TILE_DOCTOR_CHANNEL", "")
        if not spec:
            raise RuntimeError("no tile-doctor channel: run the script as `tile-doctor check kernel.py`")
        read_fd, write_fd = (int(x) for x in spec.split(","))
        _files = (os.fdopen(read_fd, "r", encoding="utf-8"), os.fdopen(write_fd, "w", encoding="utf-8"))
    return _files


def available() -> bool:
    return bool(os.environ.get("TILE_DOCTOR_CHANNEL"))


def request(message: dict) -> dict:
    """Sends one message and waits for tile-doctor's answer."""
    reader, writer = _open()
    writer.write(json.dumps(message) + "\n")
    writer.flush()
    line = reader.readline()
    if not line:
        raise RuntimeError("tile-doctor closed the channel")
    return json.loads(line)
