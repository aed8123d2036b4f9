"""capture.json (docs/capture-channel.md): what the script side writes into its folder when the script ends
(`python -m tile_doctor_capture`) or a tile_doctor.checking block does, for tile-doctor to read."""

from __future__ import annotations

import json
import os
import traceback

from tile_doctor_capture import channel


def new_record(script: str) -> dict:
    """The record before anything ran: no kernels, no exit yet."""
    return {"protocol": channel.PROTOCOL, "script": script, "kernels": [], "notes": [], "script_exit": None,
            "error": None, "tilelang_version": None, "host_device": False}


def script_frame(tb, script: str) -> str:
    """The innermost line of the user's script in a traceback ("kernel.py:31")."""
    where = ""
    for frame in traceback.extract_tb(tb):
        if os.path.abspath(frame.filename) == script:
            rel = os.path.relpath(frame.filename)
            where = f"{frame.filename if rel.startswith('..') else rel}:{frame.lineno}"
    return where


def finish(record: dict, capture, code: int, where: str, why: str) -> None:
    """How the script ended, and (with a capture) every kernel it compiled, marked launched or not, and the notes."""
    record["script_exit"] = {"code": code, "where": where, "why": why}
    if capture is not None:
        for k in capture.kernels:
            k["launched"] = k["index"] in capture.launched
        record["kernels"], record["notes"] = capture.kernels, capture.notes.items


def save(record: dict, folder: str) -> None:
    with open(os.path.join(folder, "capture.json"), "w") as f:
        json.dump(record, f, indent=1)
