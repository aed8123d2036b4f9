"""The memory timeline of a script (tile-doctor profile kernel.py): every tensor storage a torch function
makes or returns is an allocation at the user's line that made it; it is freed when the last tensor tracked on
it is collected. TileLang launches are events on the same timeline. Host-memory tensors stand for the CUDA ones
the script asked for (host_device), so the bytes are the script's own."""

from __future__ import annotations

import json
import os
import sys
import weakref

import torch
from torch.overrides import TorchFunctionMode

_OWN = (os.path.dirname(os.path.abspath(__file__)), os.path.dirname(torch.__file__))
_KEEP_ALIVE = 12  # tensors named at the peak, the largest first


class MemoryTimeline(TorchFunctionMode):
    def __init__(self, script: str):
        super().__init__()
        self.script = os.path.abspath(script)
        self.events = []
        self.live = {}      # storage key -> {"id", "bytes", "where", "holders"}
        self.holders = {}   # id(tensor) -> storage key
        self.current = self.peak = 0
        self.peak_event = -1
        self.peak_alive = []
        self.in_flight = None
        self.next_id = 1
        self.paused = False  # during a launch: tile-doctor's own copies are not the script's memory

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        self._note(out)
        return out

    def _note(self, out):
        if isinstance(out, torch.Tensor):
            self._track(out)
        elif isinstance(out, (tuple, list)):
            for o in out:
                if isinstance(o, torch.Tensor):
                    self._track(o)

    def _where(self) -> str:
        frame, fallback = sys._getframe(2), ""
        while frame is not None:
            name = os.path.abspath(frame.f_code.co_filename)
            if name == self.script:
                return f"{os.path.relpath(name) if not os.path.relpath(name).startswith('..') else name}:{frame.f_lineno}"
            if not fallback and not name.startswith(_OWN) and "tilelang" not in name:
                fallback = f"{name}:{frame.f_lineno}"
            frame = frame.f_back
        return fallback

    def _track(self, t: torch.Tensor) -> None:
        if self.paused:
            return
        try:
            storage = t.untyped_storage()
            key, size = (storage.data_ptr(), str(t.device)), storage.nbytes()
        except Exception:  # a tensor without storage (meta, sparse, a subclass): nothing allocated here
            return
        if size == 0 or key[0] == 0:
            return
        entry = self.live.get(key)
        if entry is None:
            entry = {"id": self.next_id, "bytes": size, "where": self._where(), "holders": 0,
                     "shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", "")}
            self.next_id += 1
            self.live[key] = entry
            self.current += size
            self.events.append({"event": "alloc", "tensor": entry["id"], "bytes": size, "where": entry["where"],
                                "current": self.current})
            if self.current > self.peak:
                self.peak, self.peak_event = self.current, len(self.events) - 1
                largest = sorted(self.live.values(), key=lambda e: -e["bytes"])[:_KEEP_ALIVE]
                self.peak_alive = [{k: e[k] for k in ("id", "bytes", "where", "shape", "dtype")} for e in largest]
                self.peak_in_flight = self.in_flight
        if id(t) in self.holders:
            return
        entry["holders"] += 1
        self.holders[id(t)] = key
        weakref.finalize(t, self._drop, id(t), key)

    def _drop(self, tensor_id, key) -> None:
        self.holders.pop(tensor_id, None)
        entry = self.live.get(key)
        if entry is None:
            return
        entry["holders"] -= 1
        if entry["holders"] <= 0:
            del self.live[key]
            self.current -= entry["bytes"]
            self.events.append({"event": "free", "tensor": entry["id"], "bytes": entry["bytes"], "current": self.current})

    def launch(self, number: int, where: str) -> None:
        self.in_flight = {"launch": number, "where": where}
        self.paused = True
        self.events.append({"event": "launch", "launch": number, "where": where, "current": self.current})

    def launched(self) -> None:
        self.in_flight = None
        self.paused = False

    def save(self, path: str) -> None:
        with open(path, "w") as f:
            json.dump({"peak_bytes": self.peak, "peak_event": self.peak_event, "alive_at_peak": self.peak_alive,
                       "launch_at_peak": getattr(self, "peak_in_flight", None), "end_bytes": self.current,
                       "events": self.events[:200000], "events_dropped": max(0, len(self.events) - 200000)}, f)
