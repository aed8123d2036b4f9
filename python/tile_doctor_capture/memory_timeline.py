"""The memory timeline of a script (tile-doctor profile kernel.py): every tensor storage a torch function
makes or returns is an allocation at the user's line that made it; it is freed when the last tensor tracked on
it is collected. TileLang launches are events on the same timeline. Host-memory tensors stand for the CUDA ones
the script asked for (host_device), so the bytes are the script's own. `export_memory_viz` writes the same
timeline as a snapshot PyTorch's memory_viz opens (pytorch.org/memory_viz); on a real GPU the caching allocator's
own history is exported instead, since that is what the device holds."""

from __future__ import annotations

import json
import os
import pickle
import sys
import time
import weakref

import torch
from torch.overrides import TorchFunctionMode

def _package_dir(name: str) -> str:
    import importlib.util
    spec = importlib.util.find_spec(name)
    return os.path.dirname(spec.origin) if spec and spec.origin else os.path.join(os.sep, "nonexistent")


# frames that are not the user's: tile-doctor's capture, torch, TileLang, the interpreter's own
_OWN = (os.path.dirname(os.path.abspath(__file__)), os.path.dirname(torch.__file__), _package_dir("tilelang"))
_KEEP_ALIVE = 12  # tensors named at the peak, the largest first
_MAX_EVENTS = 200000  # memory_viz hides events past ~600k (pytorch #158364); the report counts what is dropped
_MAX_FRAMES = 8  # the script's own frames kept per allocation, innermost first


class MemoryTimeline(TorchFunctionMode):
    def __init__(self, script: str, allocator_history: bool = False):
        """allocator_history: on a real GPU, also have PyTorch's caching allocator record its history (for the
        memory_viz export; it costs the script a stack walk per allocation, so only when asked)."""
        super().__init__()
        self.script = os.path.abspath(script)
        self.events = []
        self.live = {}      # storage key -> {"id", "bytes", "where", "holders", "addr", "shape", "dtype"}
        self.holders = {}   # id(tensor) -> storage key
        self.current = self.peak = 0
        self.peak_event = -1
        self.peak_alive = []
        self.in_flight = self.peak_in_flight = None
        self.next_id = 1
        self.paused = False  # during a launch: tile-doctor's own copies are not the script's memory
        self.frames_by_id = {}  # tensor id -> the frames that made it (memory_viz export)
        self.start_ns = time.perf_counter_ns()
        self.gpu_history = allocator_history and _record_allocator_history()

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

    def _where(self):
        """The script's line that made the tensor (else the first frame outside torch, TileLang and
        tile-doctor), and the user's frames, innermost first, as memory_viz shows a stack."""
        frame, where, frames = sys._getframe(1), "", []
        while frame is not None:
            name = os.path.abspath(frame.f_code.co_filename)
            own = name.startswith(_OWN) or frame.f_code.co_filename.startswith("<")
            if not own and len(frames) < _MAX_FRAMES:
                frames.append({"filename": name, "line": frame.f_lineno, "name": frame.f_code.co_name})
            if name == self.script and not where:
                rel = os.path.relpath(name)
                where = f"{name if rel.startswith('..') else rel}:{frame.f_lineno}"
            frame = frame.f_back
        if not where and frames:
            where = f"{frames[0]['filename']}:{frames[0]['line']}"
        return where, frames

    def _event(self, **fields) -> None:
        fields["time_us"] = (time.perf_counter_ns() - self.start_ns) // 1000
        fields["current"] = self.current
        self.events.append(fields)

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
            where, frames = self._where()
            entry = {"id": self.next_id, "bytes": size, "where": where, "holders": 0, "addr": key[0],
                     "shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", "")}
            self.frames_by_id[entry["id"]] = frames
            self.next_id += 1
            self.live[key] = entry
            self.current += size
            self._event(event="alloc", tensor=entry["id"], bytes=size, where=where, addr=key[0])
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
            self._event(event="free", tensor=entry["id"], bytes=entry["bytes"], addr=entry["addr"])

    def launch(self, number: int, where: str) -> None:
        self.in_flight = {"launch": number, "where": where}
        self.paused = True
        self._event(event="launch", launch=number, where=where)

    def launched(self) -> None:
        self.in_flight = None
        self.paused = False

    def save(self, path: str) -> None:
        with open(path, "w") as f:
            json.dump({"peak_bytes": self.peak, "peak_event": self.peak_event, "alive_at_peak": self.peak_alive,
                       "launch_at_peak": self.peak_in_flight, "end_bytes": self.current,
                       "events": self.events[:_MAX_EVENTS], "events_dropped": max(0, len(self.events) - _MAX_EVENTS)}, f)

    def export_memory_viz(self, path: str) -> str:
        """Writes a snapshot memory_viz opens; returns what it holds ("allocator" or "tensors")."""
        if self.gpu_history:
            torch.cuda.memory._dump_snapshot(path)
            return "allocator"
        with open(path, "wb") as f:
            pickle.dump(self._snapshot(), f)
        return "tensors"

    def _snapshot(self) -> dict:
        """The tensor timeline in torch.cuda.memory._snapshot()'s form: one device, an alloc then a
        free_requested/free_completed pair per storage, each with the script's frames; launches as
        user_metadata of the events they precede; what is alive at the end as segments (memory_viz replays the
        trace backwards from them)."""
        trace, launch = [], ""
        for e in self.events[-_MAX_EVENTS:]:  # the latest, as the allocator's ring buffer keeps them
            if e["event"] == "launch":
                launch = f"TileLang launch {e['launch']} at {e['where']}"
                continue
            entry = {"addr": e["addr"], "size": e["bytes"], "stream": 0, "time_us": e["time_us"],
                     "frames": self.frames_by_id.get(e["tensor"], []), "user_metadata": launch}
            trace += [dict(entry, action="alloc")] if e["event"] == "alloc" else \
                [dict(entry, action="free_requested"), dict(entry, action="free_completed")]
        segments = [{"device": 0, "address": e["addr"], "total_size": e["bytes"], "stream": 0, "segment_type": "large",
                     "segment_pool_id": (0, 0), "allocated_size": e["bytes"], "active_size": e["bytes"],
                     "requested_size": e["bytes"],
                     "blocks": [{"address": e["addr"], "size": e["bytes"], "requested_size": e["bytes"],
                                 "state": "active_allocated", "frames": self.frames_by_id[e["id"]]}]}
                    for e in sorted(self.live.values(), key=lambda e: e["addr"])]
        return {"segments": segments, "device_traces": [trace]}


def _record_allocator_history() -> bool:
    """On a real GPU, PyTorch's caching allocator records its own history (Python stacks only: C++
    symbolisation costs minutes on large runs, torchtitan #3628)."""
    try:
        from tile_doctor_capture import host_device
        if host_device.active() or not torch.cuda.is_available():
            return False
        torch.cuda.memory._record_memory_history(max_entries=_MAX_EVENTS, stacks="python")
        return True
    except Exception:  # an older torch without the history API: the tensor timeline is exported
        return False
