"""Host buffers allocated inside the run (``host_alloc = "per-run"``), each step timed.

What a program that allocates per call pays: before the first copy it gets its input and
output buffers, after the final synchronize it gives them back. The steps, timed on the
run's host clock, become spans on the host lane:

- pinned: ``cudaMallocHost`` (``cudaHostAlloc(n, 0)``, which pins every page before it
  returns), then "write input" (the input data); ``cudaFreeHost``;
- pageable: ``malloc`` (``np.empty``: addresses only) and "first touch" (writing the input
  data, zeroing the output), when the OS hands the pages over; ``free``. A fresh output
  buffer (``fresh_output``) is not touched: its pages fault in during the D2H copies;
- registered: ``malloc``, "first touch", ``cudaHostRegister``; ``cudaHostUnregister``, ``free``.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from overlapviz.backends.cupy.cupti_records import HostStep
from overlapviz.backends.cupy.prepared import Prepared
from overlapviz.backends.cupy.runner import PipelineRunner
from overlapviz.core.config import FLOAT32_BYTES, HostAlloc, HostMemory, PipelineConfig

Clock = Callable[[], int]
T = TypeVar("T")


class RunBuffers:
    """The two host buffers of one run: allocated by `allocate`, given back by `free`."""

    def __init__(self, config: PipelineConfig, reference_input: npt.NDArray[np.float32], clock: Clock) -> None:
        self.config = config
        self.reference_input = reference_input
        self.clock = clock
        self.steps: list[HostStep] = []
        self.arrays: list[npt.NDArray[np.float32]] = []
        self._frees: list[tuple[str, Callable[[], None]]] = []

    def _step(self, name: str, work: Callable[[], T]) -> T:
        start = self.clock()
        result = work()
        self.steps.append(HostStep(name, start, self.clock()))
        return result

    def allocate(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Get the input (holding the input data) and the output buffer."""
        host_in = self._one(fill_with=self.reference_input)
        host_out = self._one(fill_with=None)
        self.arrays = [host_in, host_out]
        return host_in, host_out

    def _one(self, fill_with: npt.NDArray[np.float32] | None) -> npt.NDArray[np.float32]:
        memory, n = self.config.memory, self.config.elements
        nbytes = n * FLOAT32_BYTES
        if memory is HostMemory.PINNED:
            runtime = _runtime()
            pointer = self._step("cudaMallocHost", lambda: runtime.hostAlloc(nbytes, 0))
            self._frees.append(("cudaFreeHost", lambda: runtime.freeHost(pointer)))
            array = np.frombuffer(memoryview((ctypes.c_char * nbytes).from_address(pointer)), dtype=np.float32)
            if fill_with is not None:
                self._step("write input", lambda: np.copyto(array, fill_with))
            return array
        array = self._step("malloc", lambda: np.empty(n, dtype=np.float32))
        fresh = fill_with is None and self.config.fresh_output
        if not fresh:
            self._step("first touch", lambda: _touch(array, fill_with))
        if memory is HostMemory.REGISTERED:
            runtime = _runtime()
            self._step("cudaHostRegister", lambda: runtime.hostRegister(array.ctypes.data, nbytes, 0))
            pointer = array.ctypes.data
            self._frees.append(("cudaHostUnregister", lambda: runtime.hostUnregister(pointer)))
        return array

    def free(self) -> None:
        """Give both buffers back (the caller has synchronised and dropped its references)."""
        frees, self._frees = self._frees, []
        arrays, self.arrays = self.arrays, []
        for name, release in frees:
            self._step(name, release)
        if self.config.memory is not HostMemory.PINNED:
            self._step("free", lambda: arrays.clear())  # the last references: numpy unmaps here


@contextmanager
def run_buffers(runner: PipelineRunner, prepared: Prepared, clock: Clock) -> Iterator[RunBuffers | None]:
    """Host buffers allocated inside this run (None when the run reuses the pool's).

    They are freed when the block ends, also when it fails (after the device is idle).
    """
    if prepared.config.host_alloc is not HostAlloc.PER_RUN:
        yield None
        return
    buffers = RunBuffers(prepared.config, runner.reference_input(prepared.config), clock)
    try:
        runner.attach(prepared, *buffers.allocate())
        yield buffers
    except BaseException:
        with suppress(Exception):
            _runtime().deviceSynchronize()
        prepared.host_in = prepared.host_out = None
        with suppress(Exception):
            buffers.free()
        raise
    buffers.free()


def _touch(array: npt.NDArray[np.float32], data: npt.NDArray[np.float32] | None) -> None:
    if data is None:
        array.fill(0.0)
    else:
        np.copyto(array, data)


def _runtime() -> Any:
    import cupy

    return cupy.cuda.runtime
