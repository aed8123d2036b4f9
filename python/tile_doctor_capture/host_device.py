"""Lets a script written for a CUDA GPU run on a machine without one: its CUDA tensors live in host memory
(as torch.set_default_device does it, through a torch function mode) and the torch.cuda queries it makes
answer from the target profile tile-doctor checks against. Installed only when torch has no usable GPU."""

from __future__ import annotations

import contextlib
import time

import torch
from torch.overrides import TorchFunctionMode

_CPU = torch.device("cpu")


def _is_cuda(device) -> bool:
    if isinstance(device, torch.device):
        return device.type == "cuda"
    if isinstance(device, str):
        return device == "cuda" or device.startswith("cuda:")
    return isinstance(device, int) and not isinstance(device, bool)  # torch reads an ordinal as a CUDA device


def _host(device):
    return _CPU if _is_cuda(device) else device


class _CudaOnHost(TorchFunctionMode):
    """Every device="cuda" becomes the host; .cuda() and .to("cuda") keep a tensor where it is."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        if "device" in kwargs:
            kwargs["device"] = _host(kwargs["device"])
        kwargs.pop("pin_memory", None)  # pinned memory needs a GPU driver
        if func in (torch.Tensor.cuda, torch.Tensor.pin_memory):
            return args[0]
        if func is torch.Tensor.to:
            args = tuple(_host(a) for a in args)
        return func(*args, **kwargs)


class _Properties:
    """torch.cuda.get_device_properties() for the target profile."""

    def __init__(self, profile: dict):
        self.name = profile["name"]
        self.multi_processor_count = int(profile["sm_count"])
        self.total_memory = int(profile["memory_bytes"])
        self.warp_size = int(profile["warp_size"])
        self.max_threads_per_multi_processor = int(profile["threads_per_sm"])
        self.shared_memory_per_block = int(profile["shared_per_block"])
        self.shared_memory_per_block_optin = int(profile["shared_per_block"])
        self.shared_memory_per_multiprocessor = int(profile["shared_per_sm"])
        self.regs_per_multiprocessor = int(profile["registers_per_sm"])
        self.major, self.minor = profile["capability"]
        self.is_integrated = False
        self.uuid = "tile-doctor-host"

    def __repr__(self):
        return f"_CudaDeviceProperties(name='{self.name}', tile-doctor host stand-in)"


class _Event:
    """A CUDA event on the host: elapsed_time measures host time between records (the kernels ran on
    the CPU executor, so it is no GPU timing)."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        self._t = None

    def record(self, stream=None):
        self._t = time.perf_counter()

    def synchronize(self):
        pass

    def wait(self, stream=None):
        pass

    def query(self):
        return True

    def elapsed_time(self, end) -> float:
        return (end._t - self._t) * 1e3


class _Stream:
    def __init__(self, device=None, priority=0, **kwargs):
        self.device = _CPU
        self.cuda_stream = 0

    def synchronize(self):
        pass

    def wait_stream(self, other):
        pass

    def wait_event(self, event):
        pass

    def record_event(self, event=None):
        event = event or _Event()
        event.record()
        return event

    def query(self):
        return True


def _seed_host_generator(seed) -> None:
    torch.default_generator.manual_seed(int(seed))


_installed = False


def active() -> bool:
    """Whether the script's CUDA tensors live on the host (then torch.cuda's answers are ours)."""
    return _installed


def install(profile: dict) -> None:
    """Starts the host redirection for the rest of the process."""
    global _installed
    _installed = True
    mode = _CudaOnHost()
    mode.__enter__()  # stays entered: the whole script runs inside it
    props = _Properties(profile)
    cuda = torch.cuda
    nothing = lambda *a, **k: None  # noqa: E731
    zero = lambda *a, **k: 0  # noqa: E731
    answers = {
        "is_available": lambda: True, "device_count": lambda: 1, "current_device": zero, "set_device": nothing,
        "is_initialized": lambda: True, "init": nothing, "synchronize": nothing, "empty_cache": nothing,
        "get_device_name": lambda *a, **k: props.name, "get_device_properties": lambda *a, **k: props,
        "get_device_capability": lambda *a, **k: (props.major, props.minor), "get_arch_list": lambda: [],
        # "CUDA" tensors live on the host, so their generator is the host's; torch.manual_seed itself calls
        # torch.cuda.manual_seed_all, which must not call it back
        "manual_seed": _seed_host_generator, "manual_seed_all": _seed_host_generator, "seed": nothing,
        "seed_all": nothing,
        "memory_allocated": zero, "max_memory_allocated": zero, "memory_reserved": zero, "max_memory_reserved": zero,
        "reset_peak_memory_stats": nothing, "reset_max_memory_allocated": nothing,
        "mem_get_info": lambda *a, **k: (props.total_memory, props.total_memory),
        "Event": _Event, "Stream": _Stream, "current_stream": lambda *a, **k: _Stream(),
        "default_stream": lambda *a, **k: _Stream(), "stream": lambda s=None: contextlib.nullcontext(),
        "device": lambda d=None: contextlib.nullcontext(),
    }
    for name, value in answers.items():
        # one function object per name: torch._dynamo keys its rules by the object and refuses one object
        # under two names with different rules (`import fla` stopped with "Duplicate torch object")
        setattr(cuda, name, value if isinstance(value, type) else _own_function(name, value))


def _own_function(name: str, answer):
    def answered(*args, **kwargs):
        return answer(*args, **kwargs)

    answered.__name__ = answered.__qualname__ = name
    return answered


_CUDA_DEVICE_TYPE = 2  # DLPack's kDLCUDA


def answer_tvm_device_queries(profile: dict) -> None:
    """TVM's device queries for CUDA device 0 (tvm.cuda().exist, compute_version, ...: what TileLang's
    requires_cuda and its arch detection ask) answered from the target profile, as torch.cuda's are; any
    other device or attribute still goes to TVM's runtime."""
    from tvm.runtime.device import Device
    props = _Properties(profile)
    answers = {0: 1, 1: 1024, 2: props.warp_size, 3: props.shared_memory_per_block,
               4: f"{props.major}.{props.minor}", 5: props.name, 7: props.multi_processor_count,
               8: "[1024, 1024, 64]", 14: props.total_memory}  # ids: tvm/runtime/device.py's properties
    original = Device._GetDeviceAttr

    def device_attr(self, device_type, device_id, attr_id):
        if device_type == _CUDA_DEVICE_TYPE and device_id == 0 and attr_id in answers:
            return answers[attr_id]
        return original(self, device_type, device_id, attr_id)

    Device._GetDeviceAttr = device_attr
