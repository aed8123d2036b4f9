"""The line of JSON messages between the script's process and the tile-doctor process that started it
(two pipes whose descriptors arrive in $TILE_DOCTOR_CHANNEL as "READ,WRITE"): docs/capture-channel.md, its
schema docs/capture-channel.schema.json, and tile-doctor's side in driver/channel_protocol.h. Every message
carries the protocol version, so a capture and an executable of different releases refuse each other by
name. With $TILE_DOCTOR_CHANNEL_LOG set, each request and reply is also appended to that file, a line each
(the schema test reads it)."""

from __future__ import annotations

import json
import os

PROTOCOL = 1

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
    return _files is not None or bool(os.environ.get("TILE_DOCTOR_CHANNEL"))


def use(reader, writer) -> None:
    """Talks on these open files from now on (tile_doctor.checking: a `tile-doctor serve` this process
    started), in place of $TILE_DOCTOR_CHANNEL's descriptors."""
    global _files
    _files = (reader, writer)


def close() -> None:
    """Closes the channel: tile-doctor at the other end sees its end and writes the report."""
    global _files
    if _files is not None:
        for f in _files:
            try:
                f.close()
            except OSError:
                pass
    _files = None


def _log(message: dict) -> None:
    path = os.environ.get("TILE_DOCTOR_CHANNEL_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(message) + "\n")


def launch_request(*, launch: int, part: int, parts: int, kernel: int, entry: str, bundle: str, compiled_at: str,
                   called_at: str, shapes: dict, scalars: dict, key: str, outputs: str, unresolved: list) -> dict:
    """The request that one device kernel of the script's launch number `launch` be run (its fields:
    docs/capture-channel.md)."""
    return {"protocol": PROTOCOL, "op": "launch", "launch": launch, "part": part, "parts": parts, "kernel": kernel,
            "entry": entry, "bundle": bundle, "compiled_at": compiled_at, "called_at": called_at, "shapes": shapes,
            "scalars": scalars, "key": key, "outputs": outputs, "unresolved": list(unresolved)}


def request(message: dict) -> dict:
    """Sends one message and waits for tile-doctor's answer."""
    reader, writer = _open()
    _log(message)
    writer.write(json.dumps(message) + "\n")
    writer.flush()
    line = reader.readline()
    if not line:
        raise RuntimeError("tile-doctor closed the channel")
    reply = json.loads(line)
    _log(reply)
    if reply.get("protocol") != PROTOCOL:
        raise RuntimeError(f"tile-doctor answers in channel protocol {reply.get('protocol')}, this capture speaks "
                           f"{PROTOCOL}: install the tile_doctor Python package and the executable from one release")
    return reply
