"""Prefetching managed memory to the host, whichever call this CUDA build and driver accept."""

from __future__ import annotations

import ctypes
from typing import Any

from benchmarks.host_kinds_gpu import CPU_DEVICE_ID, Gpu, Prefetch, prefetch_to_device

MEM_LOCATION_TYPE_HOST = 2  # CU_MEM_LOCATION_TYPE_HOST (cuda.h)
LAST_PREFETCH_LOCATION = 4  # CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION (cuda.h)


def host_prefetcher(gpu: Gpu, probe_address: int, probe_bytes: int) -> tuple[Prefetch, str, list[str]]:
    """A function that prefetches managed memory to the host on a stream, and which call it is.

    CuPy's ``memPrefetchAsync`` builds a device location for every target when built for
    CUDA 13, where ``cudaCpuDeviceId`` is then an invalid device; the driver's
    ``cuMemPrefetchAsync_v2`` (CUDA 12.2 and later) names the host as a location type, and
    before it the legacy ``cuMemPrefetchAsync`` took ``CU_DEVICE_CPU``. Each candidate is tried
    on a small managed probe, first sent to the device, and kept unless it fails or the driver
    then still reports the device as the range's last prefetch location; the failures of the
    candidates before it are returned.
    """
    driver = _libcuda()
    candidates = [
        ("driver cuMemPrefetchAsync_v2(CU_MEM_LOCATION_TYPE_HOST)", _driver_prefetch_v2(driver)),
        ("driver cuMemPrefetchAsync(CU_DEVICE_CPU), legacy", _driver_prefetch_legacy(driver)),
        ("cupy runtime.memPrefetchAsync(cudaCpuDeviceId)", _cupy_prefetch_host(gpu)),
    ]
    errors = []
    stream = gpu.streams[0]
    to_device = prefetch_to_device(gpu)
    for name, prefetch in candidates:
        if prefetch is None:
            errors.append(f"{name}: not available")
            continue
        try:
            to_device(probe_address, probe_bytes, stream)
            prefetch(probe_address, probe_bytes, stream)
            stream.synchronize()
        except Exception as error:
            errors.append(f"{name}: {error}")
            continue
        location = _last_prefetch_location(driver, probe_address, probe_bytes)
        if location == 0:
            errors.append(f"{name}: ran, but the range's last prefetch location is still device 0")
            continue
        return prefetch, name + _location_note(location), errors
    raise RuntimeError("no way to prefetch managed memory to the host: " + "; ".join(errors))


def _location_note(location: int | None) -> str:
    if location == CPU_DEVICE_ID:
        return " (verified: the driver reports the host as the last prefetch location)"
    if location is None:
        return " (not verified: the driver's range attribute could not be read)"
    return f" (the driver reports last prefetch location {location}, neither the host nor device 0)"


def _cupy_prefetch_host(gpu: Gpu) -> Prefetch:
    def prefetch(address: int, nbytes: int, stream: Any) -> None:
        gpu.runtime.memPrefetchAsync(address, nbytes, CPU_DEVICE_ID, stream.ptr)

    return prefetch


def _libcuda() -> Any:
    try:
        return ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None


class _MemLocation(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("id", ctypes.c_int)]  # CUmemLocation (cuda.h)


def _driver_prefetch_v2(driver: Any) -> Prefetch | None:
    function = getattr(driver, "cuMemPrefetchAsync_v2", None) if driver is not None else None
    if function is None:
        return None
    function.argtypes = [ctypes.c_uint64, ctypes.c_size_t, _MemLocation, ctypes.c_uint, ctypes.c_void_p]
    function.restype = ctypes.c_int

    def prefetch(address: int, nbytes: int, stream: Any) -> None:
        location = _MemLocation(MEM_LOCATION_TYPE_HOST, 0)
        _check_driver("cuMemPrefetchAsync_v2", function(address, nbytes, location, 0, stream.ptr))

    return prefetch


def _driver_prefetch_legacy(driver: Any) -> Prefetch | None:
    function = getattr(driver, "cuMemPrefetchAsync", None) if driver is not None else None
    if function is None or getattr(driver, "cuMemPrefetchAsync_v2", None) is not None:
        return None  # where _v2 exists the plain name is not needed (and cuda.h may alias it)
    function.argtypes = [ctypes.c_uint64, ctypes.c_size_t, ctypes.c_int, ctypes.c_void_p]
    function.restype = ctypes.c_int

    def prefetch(address: int, nbytes: int, stream: Any) -> None:
        _check_driver("cuMemPrefetchAsync", function(address, nbytes, CPU_DEVICE_ID, stream.ptr))

    return prefetch


def _last_prefetch_location(driver: Any, address: int, nbytes: int) -> int | None:
    """``cuMemRangeGetAttribute(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION)``: a device, -1 (host), or None."""
    function = getattr(driver, "cuMemRangeGetAttribute", None) if driver is not None else None
    if function is None:
        return None
    function.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_uint64, ctypes.c_size_t]
    function.restype = ctypes.c_int
    value = ctypes.c_int(-2)
    status = function(ctypes.byref(value), ctypes.sizeof(value), LAST_PREFETCH_LOCATION, address, nbytes)
    return int(value.value) if status == 0 else None


def _check_driver(name: str, status: int) -> None:
    if status != 0:
        raise RuntimeError(f"{name} returned CUresult {status}")
