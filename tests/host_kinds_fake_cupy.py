"""A CPU stand-in for the CuPy calls the host-memory benchmark makes, strict where CUDA is strict.

Every op runs at once, on host memory; "device" memory is host memory the fake allocated.
It checks what a real run would trip over: a copy whose device side is not device memory,
a kernel given a pointer the device cannot reach (pageable or unmapped pinned memory), a free
of memory that was never allocated (or of the wrong kind), a prefetch outside managed memory,
a capture that uses a stream it never forked or leaves one unjoined, and timing read from an
event made without timing. `outstanding()` lists what was never freed.
"""

from __future__ import annotations

import ctypes
import itertools
import time
import types
from dataclasses import dataclass, field
from typing import Any

import numpy as np

HOST_MAPPED = 2
_KIND_NAMES = {1: "host to device", 2: "device to host"}


@dataclass
class _Region:
    start: int
    nbytes: int
    kind: str  # "host", "device", "managed"
    flags: int
    buffer: Any = field(repr=False)

    def holds(self, address: int, nbytes: int) -> bool:
        return self.start <= address and address + nbytes <= self.start + self.nbytes

    @property
    def device_visible(self) -> bool:
        return self.kind in ("device", "managed") or bool(self.flags & HOST_MAPPED)


class FakeCudaError(RuntimeError):
    pass


@dataclass
class _Capture:
    origin: Any
    members: set[int]
    ops: list[Any] = field(default_factory=list)
    last_op: dict[int, int] = field(default_factory=dict)
    joined: dict[int, int] = field(default_factory=dict)


class FakeGpu:
    """The state behind one fake ``cupy`` module."""

    def __init__(self) -> None:
        self.regions: dict[int, _Region] = {}
        self.capture: _Capture | None = None
        self.sequence = itertools.count()
        self.launches: dict[str, int] = {}
        self.idle_kernels: set[str] = set()  # kernels that launch but do nothing (a broken build)
        self.prefetches: list[tuple[int, int, int]] = []

    def outstanding(self) -> list[_Region]:
        return list(self.regions.values())

    def allocate(self, nbytes: int, kind: str, flags: int = 0) -> int:
        if nbytes <= 0:
            raise FakeCudaError(f"allocation of {nbytes} bytes")
        buffer = (ctypes.c_char * nbytes)()
        address = ctypes.addressof(buffer)
        self.regions[address] = _Region(address, nbytes, kind, flags, buffer)
        return address

    def release(self, address: int, kinds: tuple[str, ...]) -> None:
        region = self.regions.get(address)
        if region is None or region.kind not in kinds:
            raise FakeCudaError(f"freeing {address:#x}, which is no {'/'.join(kinds)} allocation")
        del self.regions[address]

    def region(self, address: int, nbytes: int) -> _Region | None:
        return next((r for r in self.regions.values() if r.holds(address, nbytes)), None)

    def device_side(self, address: int, nbytes: int, what: str) -> None:
        region = self.region(address, nbytes)
        if region is None or region.kind not in ("device", "managed"):
            raise FakeCudaError(f"{what}: {nbytes} bytes at {address:#x} are not device memory")

    def reachable(self, address: int, nbytes: int, what: str) -> None:
        region = self.region(address, nbytes)
        if region is None or not region.device_visible:
            raise FakeCudaError(f"{what}: the device cannot reach {nbytes} bytes at {address:#x}")

    def submit(self, stream: Any, work: Any) -> None:
        """Run `work` now, or add it to the graph being captured."""
        capture = self.capture
        if capture is None:
            work()
            return
        if stream is None or stream.ptr not in capture.members:
            raise FakeCudaError("an op on a stream that is not part of the capture")
        capture.ops.append(work)
        capture.last_op[stream.ptr] = next(self.sequence)


def _view(address: int, elements: int) -> np.ndarray:
    return np.frombuffer((ctypes.c_float * elements).from_address(address), dtype=np.float32)


class _Runtime:
    def __init__(self, gpu: FakeGpu) -> None:
        self.gpu = gpu

    def getDeviceProperties(self, device: int) -> dict[str, Any]:  # noqa: N802 - CuPy's names
        return {
            "name": b"Fake GPU", "multiProcessorCount": 2, "canMapHostMemory": 1, "unifiedAddressing": 1,
            "concurrentManagedAccess": 1, "pageableMemoryAccess": 0, "asyncEngineCount": 3, "pciBusID": 1,
        }  # fmt: skip

    def runtimeGetVersion(self) -> int:  # noqa: N802
        return 13000

    def driverGetVersion(self) -> int:  # noqa: N802
        return 13000

    def hostAlloc(self, nbytes: int, flags: int) -> int:  # noqa: N802
        if flags not in (0, 1, 2, 4, 6):
            raise FakeCudaError(f"hostAlloc flags {flags}")
        return self.gpu.allocate(nbytes, "host", flags)

    def freeHost(self, address: int) -> None:  # noqa: N802
        self.gpu.release(address, ("host",))

    def malloc(self, nbytes: int) -> int:
        return self.gpu.allocate(nbytes, "device")

    def mallocManaged(self, nbytes: int, flags: int = 1) -> int:  # noqa: N802
        return self.gpu.allocate(nbytes, "managed", flags)

    def free(self, address: int) -> None:
        self.gpu.release(address, ("device", "managed"))

    def _checked_copy(self, dst: int, src: int, nbytes: int, kind: int) -> Any:
        if kind not in _KIND_NAMES:
            raise FakeCudaError(f"memcpy kind {kind}")
        device = dst if kind == 1 else src
        self.gpu.device_side(device, nbytes, f"memcpy {_KIND_NAMES[kind]}")
        return lambda: ctypes.memmove(dst, src, nbytes)

    def memcpyAsync(self, dst: int, src: int, nbytes: int, kind: int, stream: int) -> None:  # noqa: N802
        self.gpu.submit(_STREAMS.get(stream), self._checked_copy(dst, src, nbytes, kind))

    def memcpy(self, dst: int, src: int, nbytes: int, kind: int) -> None:
        if self.gpu.capture is not None:
            raise FakeCudaError("a synchronous copy during a capture")
        self._checked_copy(dst, src, nbytes, kind)()

    def deviceSynchronize(self) -> None:  # noqa: N802
        if self.gpu.capture is not None:
            raise FakeCudaError("cudaDeviceSynchronize during a capture")

    def pointerGetAttributes(self, address: int) -> Any:  # noqa: N802
        region = self.gpu.region(address, 1)
        if region is None:
            raise FakeCudaError(f"no allocation at {address:#x}")
        return types.SimpleNamespace(device=0, devicePointer=address, hostPointer=address, type=1)

    def memPrefetchAsync(self, address: int, nbytes: int, device: int, stream: int) -> None:  # noqa: N802
        region = self.gpu.region(address, nbytes)
        if region is None or region.kind != "managed":
            raise FakeCudaError("prefetch of memory that is not managed")
        if device not in (0, -1):
            raise FakeCudaError(f"prefetch to device {device}")
        self.gpu.submit(_STREAMS.get(stream), lambda: self.gpu.prefetches.append((address, nbytes, device)))


_STREAMS: dict[int, Any] = {}
_stream_ids = itertools.count(0x1000)


def make_fake_cupy() -> tuple[types.ModuleType, FakeGpu]:
    """A fake ``cupy`` module and the state it keeps (for the test's checks)."""
    gpu = FakeGpu()
    runtime = _Runtime(gpu)

    class Event:
        def __init__(self, block: bool = False, disable_timing: bool = False, interprocess: bool = False) -> None:
            self.timing = not disable_timing
            self.at: float | None = None
            self.stream: Any = None
            self.sequence = -1

        def record(self, stream: Any = None) -> None:
            self.at, self.stream, self.sequence = time.perf_counter(), stream, next(gpu.sequence)

        def synchronize(self) -> None:
            pass

    def get_elapsed_time(start: Event, end: Event) -> float:
        if not (start.timing and end.timing) or start.at is None or end.at is None:
            raise FakeCudaError("elapsed time of events without timing, or never recorded")
        return (end.at - start.at) * 1e3

    class Graph:
        def __init__(self, ops: list[Any]) -> None:
            self.ops = ops

        def launch(self, stream: Any = None) -> None:
            for op in self.ops:
                gpu.submit(stream, op)

    class Stream:
        def __init__(self, null: bool = False, non_blocking: bool = False, ptds: bool = False) -> None:
            self.ptr = next(_stream_ids)
            _STREAMS[self.ptr] = self

        def synchronize(self) -> None:
            if gpu.capture is not None and self.ptr in gpu.capture.members:
                raise FakeCudaError("synchronising a capturing stream")

        def begin_capture(self, mode: int | None = None) -> None:
            if gpu.capture is not None:
                raise FakeCudaError("a capture inside a capture")
            gpu.capture = _Capture(self, {self.ptr})

        def wait_event(self, event: Event) -> None:
            capture = gpu.capture
            if capture is None or event.stream is None or event.stream.ptr not in capture.members:
                return
            if self is capture.origin:
                capture.joined[event.stream.ptr] = event.sequence
            else:
                capture.members.add(self.ptr)

        def end_capture(self) -> Graph:
            capture = gpu.capture
            if capture is None or capture.origin is not self:
                raise FakeCudaError("end_capture on a stream that is not capturing")
            gpu.capture = None
            for member in capture.members - {self.ptr}:
                if capture.joined.get(member, -1) < capture.last_op.get(member, -1) or member not in capture.joined:
                    raise FakeCudaError("cudaErrorStreamCaptureUnjoined")
            return Graph(capture.ops)

    class UnownedMemory:
        def __init__(self, ptr: int, size: int, owner: object, device_id: int = -1) -> None:
            self.ptr, self.size = ptr, size

    class MemoryPointer:
        def __init__(self, mem: UnownedMemory, offset: int) -> None:
            self.mem, self.ptr = mem, mem.ptr + offset

    class RawKernel:
        def __init__(self, name: str) -> None:
            self.name = name

        def __call__(self, grid: tuple[int, ...], block: tuple[int, ...], args: tuple[Any, ...], **kwargs: Any) -> None:
            gpu.launches[self.name] = gpu.launches.get(self.name, 0) + 1
            work = self._work(args)
            gpu.submit(kwargs.get("stream"), (lambda: None) if self.name in gpu.idle_kernels else work)

        def _work(self, args: tuple[Any, ...]) -> Any:
            if self.name == "fma_chain":
                data, n, iters = args
                assert isinstance(n, np.uint64) and isinstance(iters, np.int32), args
                gpu.reachable(data.ptr, int(n) * 4, self.name)
                return lambda: _fma(_view(data.ptr, int(n)), int(iters))
            if self.name == "scale_copy":
                src, dst, n, alpha = args
                assert isinstance(n, np.uint64) and isinstance(alpha, np.float32), args
                gpu.reachable(src.ptr, int(n) * 4, self.name)
                gpu.reachable(dst.ptr, int(n) * 4, self.name)
                return lambda: np.multiply(_view(src.ptr, int(n)), alpha, out=_view(dst.ptr, int(n)))
            raise FakeCudaError(f"no fake for kernel {self.name}")

    class RawModule:
        def __init__(self, code: str, options: tuple[str, ...] = ()) -> None:
            self.code = code

        def get_function(self, name: str) -> RawKernel:
            if f"void {name}(" not in self.code:
                raise FakeCudaError(f"no kernel {name} in the source")
            return RawKernel(name)

    class Device:
        def __init__(self, index: int = 0) -> None:
            self.index = index

        def use(self) -> None:
            pass

    module = types.ModuleType("cupy")
    module.__version__ = "0-fake"  # type: ignore[attr-defined]
    module.RawModule = RawModule  # type: ignore[attr-defined]
    module.cuda = types.SimpleNamespace(  # type: ignore[attr-defined]
        runtime=runtime, Device=Device, Stream=Stream, Event=Event, get_elapsed_time=get_elapsed_time,
        UnownedMemory=UnownedMemory, MemoryPointer=MemoryPointer,
    )  # fmt: skip
    return module, gpu


def _fma(values: np.ndarray, iters: int) -> None:
    """The FMA chain in closed form (v -> 0.999 v + 0.001, `iters` times), rounded to float32 once."""
    scale, shift = float(np.float32(0.999)), float(np.float32(0.001))
    fixed = shift / (1.0 - scale)
    values[:] = (fixed + (values.astype(np.float64) - fixed) * scale**iters).astype(np.float32)
