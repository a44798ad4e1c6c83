"""Running a pipeline of the host-memory benchmark: timed runs, repeated, with the output checked.

A run starts from an idle device; before it a reset (untimed) poisons the sampled outputs or
restores an in-place buffer, after it optional host work is timed on its own, and the sampled
output is compared with the host reference, so a row never reports work that did not happen.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from benchmarks.host_kinds_gpu import FloatArray, Gpu, Issue, gbps, median
from overlapviz.backends.cupy.output_check import OutputMismatch, check_output, fill_input, sample_indices
from overlapviz.core.config import FLOAT32_BYTES, PipelineConfig


@dataclass
class RunTiming:
    """One pipeline run: the host's time issuing, the host's wall time to the end, the device's span."""

    issue_ms: float
    wall_ms: float
    makespan_ms: float


def timed_run(gpu: Gpu, streams: Sequence[Any], issue: Issue) -> RunTiming:
    """Run `issue` from an idle device; the makespan is from an event before it to the last stream's end."""
    runtime = gpu.runtime
    start, ends = gpu.event(), [gpu.event() for _ in streams]
    runtime.deviceSynchronize()
    start.record(streams[0])
    begin = time.perf_counter_ns()
    issue()
    issued = time.perf_counter_ns()
    for stream, end in zip(streams, ends, strict=True):
        end.record(stream)
    runtime.deviceSynchronize()
    done = time.perf_counter_ns()
    makespan = max(gpu.elapsed_ms(start, end) for end in ends)
    return RunTiming((issued - begin) / 1e6, (done - begin) / 1e6, makespan)


_REFERENCE: dict[int, FloatArray] = {}


def reference_input(elements: int) -> FloatArray:
    """The pipeline's input data (`fill_input`), made once per size: filling 64 Mi floats takes a while."""
    if elements not in _REFERENCE:
        _REFERENCE.clear()
        reference = np.empty(elements, dtype=np.float32)
        fill_input(reference)
        _REFERENCE[elements] = reference
    return _REFERENCE[elements]


@dataclass
class Checked:
    """The reference input of a pipeline and the positions its output is checked at."""

    config: PipelineConfig
    reference: FloatArray
    sample: npt.NDArray[np.int64]

    @classmethod
    def of(cls, config: PipelineConfig) -> Checked:
        return cls(config, reference_input(config.elements), sample_indices(config))

    def verdict(self, output: FloatArray) -> str:
        """"ok", or why the sampled output differs from the host reference."""
        try:
            check_output(self.config, self.sample, self.reference[self.sample], output[self.sample].copy())
        except OutputMismatch as error:
            return str(error)
        return "ok"


@dataclass
class RunSpec:
    """How to repeat one pipeline: reset before each run (untimed), the run, the output to check."""

    issue: Issue
    output: FloatArray
    reset: Issue
    after: Callable[[], dict[str, float]] | None = None  # host work after each run, timed by itself


def repeat_runs(
    gpu: Gpu, streams: Sequence[Any], spec: RunSpec, checked: Checked, repeats: int, warm_ups: int
) -> dict[str, Any]:
    """Warm up, run `repeats` times; medians, every run's wall time and the output check."""
    timings: list[RunTiming] = []
    extras: list[dict[str, float]] = []
    verdicts: list[str] = []
    for index in range(warm_ups + repeats):
        spec.reset()
        timing = timed_run(gpu, streams, spec.issue)
        extra = spec.after() if spec.after is not None else {}
        verdict = checked.verdict(spec.output)
        if index >= warm_ups:
            timings.append(timing)
            extras.append(extra)
            verdicts.append(verdict)
    result: dict[str, Any] = {
        "wall_ms": round(median([t.wall_ms for t in timings]), 4),
        "makespan_ms": round(median([t.makespan_ms for t in timings]), 4),
        "issue_ms": round(median([t.issue_ms for t in timings]), 4),
        "wall_ms_runs": [round(t.wall_ms, 4) for t in timings],
    }
    for key in extras[0] if extras else ():
        result[key] = round(median([e[key] for e in extras]), 4)
    bad = [v for v in verdicts if v != "ok"]
    result["output"] = "ok" if not bad else f"{len(bad)} of {len(verdicts)} runs wrong: {bad[0]}"
    return result


def poison(checked: Checked, output: FloatArray) -> Issue:
    """A reset that marks the sampled outputs unwritten (NaN), so a skipped op is caught."""

    def reset() -> None:
        output[checked.sample] = np.nan

    return reset


def restore(checked: Checked, buffer: FloatArray) -> Issue:
    """A reset that writes the reference input into an in-place buffer (the kernel changes it)."""

    def reset() -> None:
        np.copyto(buffer, checked.reference)

    return reset


def timed_host_read(view: FloatArray, scratch: FloatArray, limit_bytes: int) -> dict[str, float]:
    """Copy up to `limit_bytes` of `view` into pageable `scratch` on the host; ms and GB/s."""
    n = min(len(view), limit_bytes // FLOAT32_BYTES)
    begin = time.perf_counter_ns()
    np.copyto(scratch[:n], view[:n])
    ms = (time.perf_counter_ns() - begin) / 1e6
    return {"host_read_ms": ms, "host_read_bytes": float(n * FLOAT32_BYTES), "host_read_gbps": gbps(n * 4, ms) or 0.0}
