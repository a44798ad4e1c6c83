"""A GPU's measurements -> the model's profile values, each with how it was derived (pure).

``overlapviz calibrate`` measures (`overlapviz.backends.cupy.calibrate`); this module fits
the numbers the way the shipped ``h200`` profile's were fitted, and is tested without a GPU:

- a copy takes a fixed cost plus bytes over a rate: both from the times of one copy by size,
  by least squares on the relative error, so that the small copies set the fixed cost and
  the large ones the rate; pageable copies stream slower in a pipeline than one repeated
  copy does, so their rate comes from a buffer copied in chunks, as a pipeline copies it;
- the FMA kernel on the whole buffer takes ``n x (base + iters x per_iter)`` once its
  arithmetic outweighs its memory traffic: a straight line through its times by iterations;
  one block's dependent chain (one element per thread) gives the latency of one FMA;
- host costs per call: the trimmed mean of many calls, as the model charges each call alike.

What is not measured here comes from the nearest shipped profile (`sim.profile_writer`).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from overlapviz.core.analysis.metrics import pageable_copy_calls
from overlapviz.core.config import GIB, format_size
from overlapviz.core.config.pipeline_plan import THREADS_PER_BLOCK  # resident blocks per SM follow from it
from overlapviz.core.number_text import rate_text
from overlapviz.core.trace.spans import OpKind, Trace

TRIM = 0.1  # the share of calls dropped at each end before averaging host costs


class CalibrationError(ValueError):
    """The measurements cannot give a profile (too few points, or times that make no sense)."""


Value = str | int | float | bool | tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Sourced:
    """One profile value and where it comes from (shown as the line's comment)."""

    value: Value
    source: str


@dataclass(frozen=True, slots=True)
class CopyTime:
    """One copy alone on an idle stream: how long the device took and the call held the host."""

    memory: str  # "pinned" or "pageable"
    direction: str  # "h2d" or "d2h"
    size_bytes: int
    seconds: float
    call_seconds: float


@dataclass(frozen=True, slots=True)
class KernelTime:
    """One launch of a pipeline kernel on `elements` floats with `iters` FMA iterations."""

    elements: int
    iters: int
    seconds: float


@dataclass(frozen=True, slots=True)
class Line:
    """``y = intercept + slope x``."""

    intercept: float
    slope: float


@dataclass(frozen=True)
class Measurements:
    """Everything `overlapviz calibrate` measured on one GPU (times in seconds, sizes in bytes)."""

    gpu_name: str
    date: str  # ISO date of the measurement
    facts: Mapping[str, Any]  # device facts: copy_engines, sm_count, concurrent_kernels, link, ...
    copies: Sequence[CopyTime]
    pageable_chunks_bytes: int  # the default pipeline's buffer, copied H2D and D2H from pageable memory
    pageable_chunk_bytes: int  # one of its chunks
    pageable_chunks_seconds: Mapping[str, float]  # per direction, how long its copies held the host (see below)
    both_ways_bytes: int  # one H2D and one D2H of this size at once, on two streams
    both_ways_seconds: float  # from the first start to the last end
    memcpy_call_seconds: Sequence[float]  # cudaMemcpyAsync of pinned memory, one call each
    launch_call_seconds: Sequence[float]  # the FMA kernel's launch, one call each
    calls_traced: bool  # whether CUPTI traced the calls, as it traces the real backend's runs
    empty_kernel_seconds: float  # one iters = 0 kernel, in a back-to-back row on one stream
    fma: Sequence[KernelTime]  # the whole buffer, the whole GPU busy
    chain: Sequence[KernelTime]  # one block, one element per thread: the dependent chain alone
    sincos: KernelTime
    kernel_memory_gbps: float  # bytes read + written per second by the streaming kernel
    first_touch_bytes: int
    first_touch_seconds: float  # the host's first write to that many fresh pageable bytes
    host_ram_bytes: int


def fit_fixed_and_rate(sizes: Sequence[float], seconds: Sequence[float]) -> Line:
    """Fixed cost (s) and seconds per byte of ``seconds ≈ fixed + size / rate``.

    Least squares on the relative error (each point weighted by 1 / seconds²): a plain fit
    would let the 1 GiB copies decide the fixed cost of a 64 KiB one. A negative fixed cost
    (noise on a rate-bound set) is refitted as zero.
    """
    points = [(float(s), float(t)) for s, t in zip(sizes, seconds, strict=True) if t > 0]
    if len({s for s, _ in points}) < 2:
        raise CalibrationError("a copy fit needs times of at least two sizes")
    w = [1.0 / (t * t) for _, t in points]
    sw = sum(w)
    sx = sum(wi * s for wi, (s, _) in zip(w, points, strict=True))
    sxx = sum(wi * s * s for wi, (s, _) in zip(w, points, strict=True))
    sy = sum(wi * t for wi, (_, t) in zip(w, points, strict=True))
    sxy = sum(wi * s * t for wi, (s, t) in zip(w, points, strict=True))
    det = sw * sxx - sx * sx
    fixed = (sxx * sy - sx * sxy) / det
    per_byte = (sw * sxy - sx * sy) / det
    if fixed < 0:
        fixed, per_byte = 0.0, sxy / sxx
    if per_byte <= 0:
        raise CalibrationError("copy times do not grow with size")
    return Line(fixed, per_byte)


def fit_line(xs: Sequence[float], ys: Sequence[float]) -> Line:
    """Ordinary least squares through (x, y)."""
    if len(set(xs)) < 2:
        raise CalibrationError("a line needs at least two distinct points")
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
    return Line(my - slope * mx, slope)


def trimmed_mean(values: Sequence[float], cut: float = TRIM) -> float:
    """The mean without the `cut` share of values at each end (the odd preempted call)."""
    ordered = sorted(values)
    if not ordered:
        raise CalibrationError("no calls were timed")
    drop = int(len(ordered) * cut)
    return statistics.fmean(ordered[drop : len(ordered) - drop] or ordered)


def _round(value: float, digits: int = 4) -> float:
    """`value` to `digits` significant digits (what a measurement of this kind can carry)."""
    if value == 0 or not math.isfinite(value):
        return value
    return round(value, digits - 1 - math.floor(math.log10(abs(value))))


def _copies(m: Measurements, memory: str, direction: str) -> list[CopyTime]:
    return sorted((c for c in m.copies if c.memory == memory and c.direction == direction), key=lambda c: c.size_bytes)


def _span(copies: Iterable[CopyTime]) -> str:
    sizes = [c.size_bytes for c in copies]
    return f"{format_size(min(sizes))}-{format_size(max(sizes))}"


def copy_fit(m: Measurements, memory: str, direction: str) -> Line:
    """The fixed cost + bytes / rate line of one memory kind and direction."""
    copies = _copies(m, memory, direction)
    if not copies:
        raise CalibrationError(f"no {memory} {direction.upper()} copies were measured")
    return fit_fixed_and_rate([c.size_bytes for c in copies], [c.seconds for c in copies])


def link_values(m: Measurements) -> dict[str, Sourced]:
    """Pinned and pageable rates, the fixed cost of a copy, both directions at once."""
    values: dict[str, Sourced] = {}
    fits = {}
    for direction in ("h2d", "d2h"):
        fits[direction] = fit = copy_fit(m, "pinned", direction)
        span = _span(_copies(m, "pinned", direction))
        values[f"{direction}_gbps"] = Sourced(
            _round(1 / fit.slope / 1e9), f"pinned {direction.upper()} {span}: fixed cost + bytes / rate, fitted"
        )
    latency_us = statistics.fmean(fit.intercept for fit in fits.values()) * 1e6
    for direction in ("h2d", "d2h"):
        values[f"pageable_{direction}_gbps"] = pageable_rate(m, direction, latency_us * 1e-6)
    values["copy_latency_us"] = Sourced(
        _round(latency_us, 3), "the fixed cost of the pinned H2D and D2H fits, averaged"
    )
    together = 2 * m.both_ways_bytes / m.both_ways_seconds / 1e9
    alone = sum(1 / fit.slope / 1e9 for fit in fits.values())
    values["bidirectional_factor"] = Sourced(
        _round(min(1.0, together / alone), 3),
        f"{format_size(m.both_ways_bytes)} H2D and D2H at once: {rate_text(together)} together"
        f" / {rate_text(alone)} of the two alone",
    )
    return values


def pageable_copy_seconds(trace: Trace) -> dict[str, float]:
    """Per direction, the seconds that a run's pageable copies held the host thread.

    Each copy counts from the moment it could begin (its call had started and its stream had
    reached it) to the moment its call returned: the driver stages a pageable copy through
    its own pinned buffer, and the call returns only when the data has moved. That is the
    time the model charges such a copy (its fixed cost plus bytes over the staged rate).
    """
    calls = np.flatnonzero(pageable_copy_calls(trace))
    ops = trace["op"][calls]
    begin = np.maximum(trace["start_ns"][calls], trace["ready_ns"][ops])
    held = np.maximum(trace["end_ns"][calls] - begin, 0)
    kinds = trace["kind"][ops]
    return {key: float(held[kinds == kind].sum()) / 1e9 for kind, key in ((OpKind.H2D, "h2d"), (OpKind.D2H, "d2h"))}


def pageable_rate(m: Measurements, direction: str, fixed_s: float) -> Sourced:
    """The staged rate of pageable copies, from the default pipeline's own pageable copies.

    The model charges each copy the fixed cost plus bytes over this rate, so the fixed cost
    of every chunk comes off the time first. Single copies by size, one buffer repeated,
    stream faster than a pipeline's pages do; their fitted rate is given for comparison.
    """
    chunks = m.pageable_chunks_bytes // m.pageable_chunk_bytes
    seconds = m.pageable_chunks_seconds[direction] - chunks * fixed_s
    if seconds <= 0:
        raise CalibrationError(f"the pageable {direction.upper()} copies took no time")
    single = 1 / copy_fit(m, "pageable", direction).slope / 1e9
    return Sourced(
        _round(m.pageable_chunks_bytes / seconds / 1e9),
        f"pageable {direction.upper()} of {format_size(m.pageable_chunks_bytes)} in {chunks} copies of"
        f" {format_size(m.pageable_chunk_bytes)} in the default pipeline, from each copy's start until its"
        " call returned, less their fixed cost"
        f" (single copies by size, {_span(_copies(m, 'pageable', direction))}, fit {rate_text(single)})",
    )


def kernel_values(m: Measurements) -> dict[str, Sourced]:
    """The empty launch, the FMA kernel's cost per element and per iteration, its latency, sincos."""
    launch_s = m.empty_kernel_seconds
    values = {"kernel_launch_us": Sourced(_round(launch_s * 1e6, 3), "an iters = 0 kernel, back to back on one stream")}
    n = m.fma[0].elements
    if any(k.elements != n for k in m.fma):
        raise CalibrationError("the FMA kernel was timed on different sizes")
    line = fit_line([k.iters for k in m.fma], [k.seconds for k in m.fma])
    iters = ", ".join(str(k.iters) for k in m.fma)
    where = f"the FMA kernel on {n} elements at iters {iters}"
    values["fma_base_ns_per_element"] = Sourced(
        _round(max(0.0, line.intercept - launch_s) * 1e9 / n), f"{where}: (intercept - launch) / elements"
    )
    values["fma_ns_per_element_iter"] = Sourced(_round(line.slope * 1e9 / n), f"{where}: slope / elements")
    chain = fit_line([k.iters for k in m.chain], [k.seconds for k in m.chain])
    values["fma_latency_ns"] = Sourced(
        _round(chain.slope * 1e9),
        f"one block, one element per thread, iters {', '.join(str(k.iters) for k in m.chain)}: slope per iteration",
    )
    values["kernel_memory_gbps"] = Sourced(_round(m.kernel_memory_gbps), "the streaming copy kernel, read + write")
    sincos = max(0.0, m.sincos.seconds - launch_s) * 1e9 / m.sincos.elements
    values["sincos_ns_per_element"] = Sourced(_round(sincos), f"the sincos kernel on {m.sincos.elements} elements")
    return values


def host_values(m: Measurements) -> dict[str, Sourced]:
    """Host time per call, the first-touch rate, the host's RAM."""
    how = "timed from Python with CUPTI tracing, as in a CUPTI-timed run" if m.calls_traced else "timed from Python"
    return {
        "memcpy_call_us": Sourced(
            _round(trimmed_mean(m.memcpy_call_seconds) * 1e6, 3),
            f"cudaMemcpyAsync of pinned memory, trimmed mean of {len(m.memcpy_call_seconds)} calls {how}",
        ),
        "launch_call_us": Sourced(
            _round(trimmed_mean(m.launch_call_seconds) * 1e6, 3),
            f"the FMA kernel's launch, trimmed mean of {len(m.launch_call_seconds)} calls {how}",
        ),
        "first_touch_gbps": Sourced(
            _round(m.first_touch_bytes / m.first_touch_seconds / 1e9, 3),
            f"the first write to {format_size(m.first_touch_bytes)} of fresh pageable memory",
        ),
        "host_ram_gib": Sourced(_round(m.host_ram_bytes / GIB, 3), "the RAM the operating system reports"),
    }


def device_values(m: Measurements) -> dict[str, Sourced]:
    """What the device says of itself: engines, SMs, the link."""
    facts = m.facts
    values = {
        "copy_engines": Sourced(int(facts["copy_engines"]), "the device's asyncEngineCount"),
        "concurrent_kernels": Sourced(bool(facts["concurrent_kernels"]), "the device's concurrentKernels"),
        "sm_count": Sourced(int(facts["sm_count"]), "the device's multiProcessorCount"),
    }
    threads = int(facts.get("max_threads_per_sm") or 0)
    if threads >= THREADS_PER_BLOCK:
        values["blocks_per_sm"] = Sourced(
            threads // THREADS_PER_BLOCK, f"the device's maxThreadsPerMultiProcessor {threads} / 256 threads per block"
        )
    if facts.get("link"):
        values["link"] = Sourced(str(facts["link"]), "nvidia-smi: PCIe generation and width")
    if facts.get("link_peak_gbps"):
        values["link_peak_gbps"] = Sourced(float(facts["link_peak_gbps"]), "the PCIe generation's rate x the lanes")
    return values


def profile_values(m: Measurements, base_key: str) -> dict[str, Sourced]:
    """Every profile value these measurements give, each with how it was derived.

    `base_key` is the shipped profile the numbers not measured come from (the summary says so).
    """
    return {
        "name": Sourced(f"{m.gpu_name} (calibrated {m.date})", "the device's name and the date of the measurement"),
        "summary": Sourced(
            f"{m.gpu_name} measured by overlapviz calibrate on {m.date}; what it does not measure is the"
            f" {base_key} profile's",
            "what this file is",
        ),
        **device_values(m),
        **link_values(m),
        **kernel_values(m),
        **host_values(m),
    }
