"""Host and device buffers, allocated once before any timed region and reused.

Allocating pinned or device memory between two commands stops them running concurrently,
and ``cudaMallocHost`` of 256 MiB costs about 90 ms on the H200, so a buffer is kept for the
next run of the same size and replaced only when the size changes. What is kept is bounded
by the last run's needs: one host buffer per role whatever its kind (a pinned run after a
pageable one frees the pageable buffers), and a replaced device buffer goes back to the
driver, not to CuPy's cache. Host kinds:

- pinned: ``cudaHostAlloc(n, 0)`` (what ``cudaMallocHost`` does; CuPy's pinned pool would
  round the size up to a power of two), freed with ``cudaFreeHost``;
- pageable: a numpy array, touched so the first copy pays no page faults;
- registered: a touched numpy array pinned after the fact with ``cudaHostRegister``;
- write-combined: ``cudaHostAlloc(n, cudaHostAllocWriteCombined)``, pinned and uncached on
  the host (fast for the DMA engine to read, slow for the host to read);
- mapped: ``cudaHostAlloc(n, cudaHostAllocMapped)``, pinned and given a device address that
  kernels read and write across the link (CuPy has no ``cudaHostGetDevicePointer``;
  ``cudaPointerGetAttributes`` reports the same pointer);
- managed: ``cudaMallocManaged(n, cudaMemAttachGlobal)``, freed with ``cudaFree``; its pages
  migrate between host and device, so it pins nothing.

Every page-locked request (pinned, registered, write-combined, mapped; the staging ring's
slots are pinned) passes the RAM guard first; so does all the host memory a run needs
(`check_host`), pageable and managed included.
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.backends.cupy.ram_guard import available_ram, check_host_request, check_pin_request
from overlapviz.core.config import HostMemory

_FLOAT32 = np.dtype(np.float32)
# cudaHostAlloc flags and cudaMallocManaged's attach flag (driver_types.h; they never change).
HOST_ALLOC_DEFAULT = 0
HOST_ALLOC_MAPPED = 2
HOST_ALLOC_WRITE_COMBINED = 4
MEM_ATTACH_GLOBAL = 1
_HOST_ALLOC_FLAGS = {
    HostMemory.PINNED: HOST_ALLOC_DEFAULT,
    HostMemory.WRITE_COMBINED: HOST_ALLOC_WRITE_COMBINED,
    HostMemory.MAPPED: HOST_ALLOC_MAPPED,
}
# Host memory the OS cannot page out while this process holds it: what the RAM guard counts.
_BUFFER_KINDS = {HostMemory.STAGED: HostMemory.PAGEABLE, HostMemory.MANAGED_PREFETCH: HostMemory.MANAGED}
PAGE_LOCKED = frozenset({HostMemory.PINNED, HostMemory.REGISTERED, HostMemory.WRITE_COMBINED, HostMemory.MAPPED})
Filler = Callable[[npt.NDArray[np.float32]], None]


@dataclass(frozen=True, slots=True)
class HeldBytes:
    """What a pool holds now, in bytes: for the app's status and the soak benchmark."""

    pinned: int  # page-locked host memory (pinned, registered, write-combined, mapped)
    pageable: int
    device: int
    managed: int = 0  # cudaMallocManaged memory, on the host or the device as its pages migrated


@dataclass
class HostBuffer:
    """A float32 host buffer and how to give it back."""

    array: npt.NDArray[np.float32]
    memory: HostMemory
    release: Callable[[], None] = field(repr=False)
    device_pointer: int = 0  # where kernels reach it: mapped and managed memory only, else 0

    @property
    def nbytes(self) -> int:
        """Size in bytes."""
        return int(self.array.nbytes)

    @property
    def pointer(self) -> int:
        """Host address, for ``cudaMemcpyAsync``."""
        return int(self.array.ctypes.data)


def _touched(elements: int) -> npt.NDArray[np.float32]:
    array = np.empty(elements, dtype=np.float32)
    array.fill(0.0)  # first touch now, not inside a timed copy
    return array


def _view(pointer: int, nbytes: int) -> npt.NDArray[np.float32]:
    """A float32 numpy view of `nbytes` at `pointer` (valid while that memory is)."""
    return np.frombuffer(memoryview((ctypes.c_char * nbytes).from_address(pointer)), dtype=np.float32)


def buffer_kind(memory: HostMemory) -> HostMemory:
    """The kind of the data buffers a pipeline of `memory` allocates.

    Staged data is pageable (its ring of pinned slots is a buffer of its own); prefetched
    managed memory is managed memory.
    """
    return _BUFFER_KINDS.get(memory, memory)


def alloc_host(memory: HostMemory, elements: int) -> HostBuffer:
    """A host buffer of `elements` float32 values of `buffer_kind(memory)`, zero-filled (no RAM guard here)."""
    memory = buffer_kind(memory)
    if memory is HostMemory.PAGEABLE:
        return HostBuffer(_touched(elements), memory, lambda: None)
    import cupy

    runtime = cupy.cuda.runtime
    nbytes = elements * _FLOAT32.itemsize
    if memory is HostMemory.REGISTERED:
        array = _touched(elements)
        runtime.hostRegister(array.ctypes.data, nbytes, 0)
        return HostBuffer(array, memory, lambda: runtime.hostUnregister(array.ctypes.data))
    if memory is HostMemory.MANAGED:
        pointer = int(runtime.mallocManaged(nbytes, MEM_ATTACH_GLOBAL))
        return _filled(HostBuffer(_view(pointer, nbytes), memory, lambda: runtime.free(pointer), pointer))
    pointer = int(runtime.hostAlloc(nbytes, _HOST_ALLOC_FLAGS[memory]))
    buffer = HostBuffer(_view(pointer, nbytes), memory, lambda: runtime.freeHost(pointer))
    if memory is HostMemory.MAPPED:
        try:
            buffer.device_pointer = mapped_device_pointer(pointer)
        except BaseException:
            buffer.release()
            raise
    return _filled(buffer)


def _filled(buffer: HostBuffer) -> HostBuffer:
    """`buffer` zero-filled by the host: every page touched (managed pages now live on the host)."""
    try:
        buffer.array.fill(0.0)
    except BaseException:
        buffer.release()
        raise
    return buffer


def mapped_device_pointer(pointer: int) -> int:
    """The device address of mapped host memory at `pointer`, as ``cudaHostGetDevicePointer`` gives it.

    A null one is refused: a kernel handed it would fault, and that error would end every
    later run of the process.
    """
    import cupy

    device_pointer = int(cupy.cuda.runtime.pointerGetAttributes(pointer).devicePointer)
    if device_pointer == 0:
        raise RuntimeError(f"host memory at {pointer:#x} has no device address: it is not mapped")
    return device_pointer


class BufferPool:
    """Keeps one host buffer per (memory kind, role) and one device buffer per role."""

    def __init__(self, pin_share: float) -> None:
        self.pin_share = pin_share
        self._host: dict[tuple[HostMemory, str], HostBuffer] = {}
        self._device: dict[str, Any] = {}
        # Allocation serials, for `snapshot`: id() would not do, a new buffer may reuse a freed id.
        self._serials: dict[object, int] = {}
        self._next_serial = 0
        self.available_ram: Callable[[], int | None] = available_ram
        self.allocate: Callable[[HostMemory, int], HostBuffer] = alloc_host

    @property
    def pinned_bytes(self) -> int:
        """Bytes this pool holds page-locked (pinned, registered, write-combined, mapped)."""
        return sum(b.nbytes for b in self._host.values() if b.memory in PAGE_LOCKED)

    def held(self) -> HeldBytes:
        """Bytes held now: page-locked, pageable, on the device, managed."""
        pageable = sum(b.nbytes for b in self._host.values() if b.memory is HostMemory.PAGEABLE)
        managed = sum(b.nbytes for b in self._host.values() if b.memory is HostMemory.MANAGED)
        device = sum(int(array.nbytes) for array in self._device.values())
        return HeldBytes(self.pinned_bytes, pageable, device, managed)

    def host(
        self, memory: HostMemory, role: str, elements: int, fill: Filler | None = None, *, guard: bool = True
    ) -> HostBuffer:
        """The host buffer for `role`, reused when its kind and size match; else a new one.

        `fill` writes its initial contents once, when it is allocated. `guard=False` skips the
        RAM guard, for scratch buffers of a few KiB that any machine can spare.
        """
        memory = buffer_kind(memory)
        key = (memory, role)
        held = self._host.get(key)
        if held is not None and len(held.array) == elements:
            return held
        for other in [k for k in self._host if k[1] == role]:  # one buffer per role, of any kind
            self._host.pop(other).release()
        if guard and memory in PAGE_LOCKED:
            self.check_pin(elements * _FLOAT32.itemsize)
        buffer = self.allocate(memory, elements)
        self._host[key] = buffer
        self._born(key)
        if fill is not None:
            fill(buffer.array)
        return buffer

    def check_pin(self, nbytes: int) -> None:
        """Raise `PinRefused` if pinning `nbytes` more would take too much of the RAM."""
        check_pin_request(nbytes, self.pinned_bytes, self.available_ram(), self.pin_share)

    def check_host(self, nbytes: int, roles: tuple[str, ...]) -> None:
        """Raise `HostMemoryRefused` if `nbytes` of host memory for `roles` would not fit in the RAM.

        The buffers those roles hold now are counted as free: they are replaced, not added to.
        """
        replaced = sum(b.nbytes for (_, role), b in self._host.items() if role in roles)
        check_host_request(nbytes, replaced, self.available_ram())

    def device(self, role: str, elements: int) -> Any:
        """A float32 device array for `role` (``cupy.ndarray``), reused while the size matches."""
        import cupy

        held = self._device.get(role)
        if held is None or held.size != elements:
            self._device.pop(role, None)
            if held is not None:
                del held
                cupy.get_default_memory_pool().free_all_blocks()  # back to the driver, not CuPy's cache
            self._device[role] = cupy.empty(elements, dtype=cupy.float32)
            self._born(role)
        return self._device[role]

    def _born(self, key: object) -> None:
        self._serials[key] = self._next_serial
        self._next_serial += 1

    def drop(self, role: str) -> None:
        """Free the host buffers of `role` (every kind) and its device buffer."""
        for key in [key for key in self._host if key[1] == role]:
            self._host.pop(key).release()
        self.drop_device(role)

    def drop_device(self, *roles: str) -> None:
        """Let go of the device buffers of `roles`, back to the driver."""
        dropped = [self._device.pop(role) for role in roles if role in self._device]
        if dropped:
            del dropped
            _free_cached_device_blocks()

    def snapshot(self) -> set[int]:
        """Allocation serials of the buffers held now (for `release_new`)."""
        held = [*self._host, *self._device]
        return {self._serials[key] for key in held}

    def release_new(self, before: set[int]) -> None:
        """Free the buffers allocated since `snapshot` returned `before`; keep the older ones."""
        for key in [key for key in self._host if self._serials[key] not in before]:
            self._host.pop(key).release()
        for role in [role for role in self._device if self._serials[role] not in before]:
            del self._device[role]
        _free_cached_device_blocks()

    def release_all(self) -> None:
        """Free every buffer (the caller has synchronised: nothing may still use them)."""
        buffers, self._host = list(self._host.values()), {}
        self._device = {}
        errors = []
        for buffer in buffers:
            try:
                buffer.release()
            except Exception as error:  # keep freeing the rest; report the first failure
                errors.append(error)
        _free_cached_device_blocks()
        if errors:
            raise errors[0]


def _free_cached_device_blocks() -> None:
    """Hand CuPy's cached device blocks back to the driver (device arrays exist only if CuPy was imported)."""
    cupy = sys.modules.get("cupy")
    if cupy is not None:
        cupy.get_default_memory_pool().free_all_blocks()
