"""Capturing the pipeline's ops into one CUDA Graph, with timing events inside it.

A captured graph is launched by one ``cudaGraphLaunch``, and CUPTI gives every op of it that
call's correlation id, so the records cannot be told apart op by op. The ops are timed with
events recorded inside the graph instead. An event recorded during capture is only a
dependency between streams unless recorded with ``cudaEventRecordExternal``, which makes it
an event record node that is recorded at every launch; CuPy has no ``cudaEventRecordWithFlags``,
so the driver's ``cuEventRecordWithFlags`` is called through ctypes (a ``cudaEvent_t`` is a
``CUevent``, a ``cudaStream_t`` a ``CUstream``).

The streams other than the first join the capture by waiting on an event recorded on the
first (fork) and leave it by the first waiting on an event of each (join), as the CUDA
programming guide's cross-stream capture does.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import Any

EVENT_RECORD_EXTERNAL = 1  # CU_EVENT_RECORD_EXTERNAL (cuda.h)

Record = Callable[[Any, Any], None]  # (cupy Event, cupy Stream)


class GraphUnavailable(RuntimeError):
    """The pipeline cannot be captured into a timed graph here; the message says why."""


def external_record() -> Record:
    """A function recording an event on a capturing stream as an event record node."""
    try:
        driver = ctypes.CDLL("libcuda.so.1")
        function = driver.cuEventRecordWithFlags
    except (OSError, AttributeError) as error:
        raise GraphUnavailable(f"the CUDA driver has no cuEventRecordWithFlags ({error})") from error
    function.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint]
    function.restype = ctypes.c_int

    def record(event: Any, stream: Any) -> None:
        status = function(event.ptr, stream.ptr, EVENT_RECORD_EXTERNAL)
        if status != 0:
            raise RuntimeError(f"cuEventRecordWithFlags returned CUresult {status}")

    return record


def capture(streams: Sequence[Any], issue: Callable[[], None]) -> Any:
    """A CUDA Graph (``cupy.cuda.graph.Graph``, instantiated) of everything `issue` puts on `streams`.

    On failure the capture is ended and its partial graph dropped, so the streams stay usable.
    """
    import cupy

    origin = streams[0]
    origin.begin_capture()
    try:
        fork = cupy.cuda.Event(disable_timing=True)
        fork.record(origin)
        for stream in streams[1:]:
            stream.wait_event(fork)
        issue()
        for stream in streams[1:]:
            join = cupy.cuda.Event(disable_timing=True)
            join.record(stream)
            origin.wait_event(join)
    except BaseException:
        with suppress(Exception):
            origin.end_capture()
        raise
    return origin.end_capture()
