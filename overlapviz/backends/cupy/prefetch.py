"""``cudaMemPrefetchAsync`` of managed memory on a stream: to the device, and back to the host.

To the device, CuPy's ``runtime.memPrefetchAsync`` works in every build. To the host it does
not when CuPy is built for CUDA 13: it builds a device location for every target, and
``cudaCpuDeviceId`` (-1) is then an invalid device (seen on the H200, CuPy 14.2, 2026-12-01).
The driver's ``cuMemPrefetchAsync_v2`` (CUDA 12.2 and later) names the host as a location
type; before it the legacy ``cuMemPrefetchAsync`` took ``CU_DEVICE_CPU``. So the host
prefetch goes through the driver, found with ctypes, and falls back to CuPy's call only
where the driver has neither.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

CPU_DEVICE_ID = -1  # cudaCpuDeviceId, and CU_DEVICE_CPU of the driver API
MEM_LOCATION_TYPE_HOST = 2  # CU_MEM_LOCATION_TYPE_HOST (cuda.h)

Prefetch = Callable[[int, int, int], None]  # (address, bytes, stream pointer)


class _MemLocation(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("id", ctypes.c_int)]  # CUmemLocation (cuda.h)


def to_device(device: int) -> Prefetch:
    """A prefetch of managed memory to CUDA device `device`, on a stream."""
    import cupy

    runtime = cupy.cuda.runtime

    def prefetch(address: int, nbytes: int, stream: int) -> None:
        runtime.memPrefetchAsync(address, nbytes, device, stream)

    return prefetch


def to_host() -> Prefetch:
    """A prefetch of managed memory to the host, on a stream (see the module docstring for which call)."""
    driver = _libcuda()
    v2 = getattr(driver, "cuMemPrefetchAsync_v2", None) if driver is not None else None
    if v2 is not None:
        return _driver_v2(v2)
    legacy = getattr(driver, "cuMemPrefetchAsync", None) if driver is not None else None
    if legacy is not None:
        return _driver_legacy(legacy)
    return _cupy_to_host()


def _driver_v2(function: Any) -> Prefetch:
    function.argtypes = [ctypes.c_uint64, ctypes.c_size_t, _MemLocation, ctypes.c_uint, ctypes.c_void_p]
    function.restype = ctypes.c_int

    def prefetch(address: int, nbytes: int, stream: int) -> None:
        location = _MemLocation(MEM_LOCATION_TYPE_HOST, 0)
        _check("cuMemPrefetchAsync_v2", function(address, nbytes, location, 0, stream))

    return prefetch


def _driver_legacy(function: Any) -> Prefetch:
    function.argtypes = [ctypes.c_uint64, ctypes.c_size_t, ctypes.c_int, ctypes.c_void_p]
    function.restype = ctypes.c_int

    def prefetch(address: int, nbytes: int, stream: int) -> None:
        _check("cuMemPrefetchAsync", function(address, nbytes, CPU_DEVICE_ID, stream))

    return prefetch


def _cupy_to_host() -> Prefetch:
    import cupy

    runtime = cupy.cuda.runtime

    def prefetch(address: int, nbytes: int, stream: int) -> None:
        runtime.memPrefetchAsync(address, nbytes, CPU_DEVICE_ID, stream)

    return prefetch


def _libcuda() -> Any:
    try:
        return ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None


def _check(name: str, status: int) -> None:
    if status != 0:
        raise RuntimeError(f"{name} returned CUresult {status}")
