"""Where the time of opening a big trace goes, after the file is read: the analysis and the view.

Opening a trace in the app analyses it (`compute_metrics`, then `trace_findings`) and then
prepares what the window shows (`prepare_view`: lanes, span sets, callouts, hover index). This
builds a trace of about N spans shaped like a PyTorch profile of one GPU, with numpy and no loop
over spans: two host threads issuing kernels, copies and memsets with ``cudaLaunchKernel``,
``cudaMemcpyAsync`` and ``cudaMemsetAsync``, now and then a ``cudaStreamSynchronize`` or an
allocation, ``record_function`` ranges around groups of calls and a ``ProfilerStep#N`` around
many; the device ops spread over many streams (compute streams, a copy stream each way, one for
NCCL's collectives), each op starting once its stream is free and its call has issued it. Rows
are sorted by start, as a Chrome trace's events are. Then it times each step on that trace and
prints the seconds of each; `--profile` also prints cProfile's top entries by own time and by
cumulative time.

    python -m benchmarks.open_profile [--spans 1000000] [--gpus 1] [--profile] [--top 30]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import os
import pstats
import resource
import time
from collections.abc import Callable
from typing import Any

import numpy as np

COMPUTE_STREAMS = 6
H2D_STREAM, D2H_STREAM, NCCL_STREAM = COMPUTE_STREAMS, COMPUTE_STREAMS + 1, COMPUTE_STREAMS + 2
KERNEL_NAMES = 200  # distinct kernel names, as a model's layers give
CALLS_PER_RANGE = 20  # host calls under one record_function range
CALLS_PER_STEP = 20_000  # host calls under one ProfilerStep#N
RANGE_NAMES = 50  # distinct record_function names
STEP_NAMES = 100 + KERNEL_NAMES + RANGE_NAMES  # where the names ProfilerStep#0, #1, ... begin
SPANS_PER_CALL = 2.1  # a call, the op it issued, and a share of the ranges and the calls that issue nothing


def _op_mix() -> tuple[list[Any], list[float]]:
    """The device ops' kinds and their shares: mostly kernels, some copies, memsets and collectives."""
    from overlapviz.core.trace.spans import OpKind

    mix = {
        OpKind.KERNEL: 0.80, OpKind.H2D: 0.04, OpKind.D2H: 0.03, OpKind.MEMSET: 0.03, OpKind.D2D: 0.03,
        OpKind.COMMUNICATION: 0.07,
    }  # fmt: skip
    return list(mix), list(mix.values())


def _stream_ends(stream: np.ndarray, enqueue: np.ndarray, busy: np.ndarray) -> np.ndarray:
    """Each op's end, the ops of a stream run in row order, each once its stream is free and it was issued.

    end[i] = max(enqueue[i], end[i - 1]) + busy[i] within a stream, which unrolls to
    cumsum(busy)[i] + max over j <= i of (enqueue[j] - cumsum(busy)[j - 1]).
    """
    ends = np.empty_like(enqueue)
    for s in np.unique(stream):
        rows = np.flatnonzero(stream == s)
        total = np.cumsum(busy[rows])
        before = total - busy[rows]
        ends[rows] = total + np.maximum.accumulate(enqueue[rows] - before)
    return ends


def _host_calls(calls: int, threads: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The host calls' thread, start and end: each thread's calls one after another, a few us apart."""
    thread = np.where(rng.random(calls) < 0.7, 0, np.arange(1, threads)[rng.integers(0, threads - 1, calls)])
    length = rng.integers(2_000, 9_000, calls)
    gap = rng.integers(500, 12_000, calls)
    start = np.empty(calls, dtype=np.int64)
    for t in range(threads):
        rows = np.flatnonzero(thread == t)
        start[rows] = np.cumsum(length[rows] + gap[rows]) - length[rows] + 1_000 * t
    return thread, start, start + length


def pytorch_like_trace(spans: int, gpus: int = 1, seed: int = 0) -> Any:
    """A trace of about `spans` spans shaped like a PyTorch profile (see the module docstring)."""
    from overlapviz.core.trace.columns import COLUMNS
    from overlapviz.core.trace.meta import TraceMeta
    from overlapviz.core.trace.spans import OpKind, Trace, Unit

    rng = np.random.default_rng(seed)
    calls = max(64, int(spans / SPANS_PER_CALL))
    thread, call_start, call_end = _host_calls(calls, 2, rng)
    op_call = np.flatnonzero(rng.random(calls) >= 0.03)  # the rest synchronise or allocate
    ops = _device_ops(call_end[op_call] - 500, gpus, rng)
    ops["thread"] = thread[op_call]
    # the calls' names: launch, copy or memset for those that issue; sync or malloc for the rest
    call_name = np.where(rng.random(calls) < 0.5, 8, 9)
    call_name[op_call] = np.select([ops["bytes"] > 0, ops["kind"] == OpKind.MEMSET], [6, 7], 5)
    call_op = np.full(calls, -1, dtype=np.int64)
    call_op[op_call] = np.arange(op_call.size)  # the device ops' rows come first, below
    call_device = np.full(calls, -1, dtype=np.int16)
    call_device[op_call] = ops["device"]
    host = {
        "kind": np.full(calls, OpKind.API), "unit": np.full(calls, Unit.HOST), "start_ns": call_start,
        "end_ns": call_end, "name": call_name, "op": call_op, "device": call_device, "thread": thread,
    }  # fmt: skip
    ranges = _ranges(thread, call_start, call_end)
    groups = [_filled(ops), _filled(host), _filled(ranges)]
    columns = _sorted_by_start({name: np.concatenate([group[name] for group in groups]) for name in COLUMNS})
    meta = {
        "backend": "benchmark", "device": "h200", "device_name": "NVIDIA H200", "timing": "model",
        "version": "0", "device_facts": {"copy_engines": 2}, "simulated": True,
    }  # fmt: skip
    names = _names(int(ranges["name"].max()) + 1 - STEP_NAMES)
    return Trace({k: v.astype(COLUMNS[k]) for k, v in columns.items()}, names, TraceMeta.from_dict(meta))


def _device_ops(enqueue: np.ndarray, gpus: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """The columns of the device ops issued at `enqueue`: kinds, streams, bytes, times, names."""
    from overlapviz.core.trace.spans import MemoryKind, OpKind, Unit

    ops = enqueue.size
    kinds, shares = _op_mix()
    kind = np.array(kinds, dtype=np.int8)[rng.choice(len(kinds), ops, p=shares)]
    units = {
        OpKind.KERNEL: Unit.COMPUTE, OpKind.H2D: Unit.H2D_ENGINE, OpKind.D2H: Unit.D2H_ENGINE,
        OpKind.MEMSET: Unit.MEMSET, OpKind.D2D: Unit.DEVICE_COPY, OpKind.COMMUNICATION: Unit.COMMUNICATION,
    }  # fmt: skip
    unit_of = np.zeros(max(units) + 1, dtype=np.int8)
    unit_of[list(units)] = list(units.values())
    stream = rng.choice(COMPUTE_STREAMS, ops, p=[0.55, 0.15, 0.1, 0.1, 0.05, 0.05]).astype(np.int32)
    own_streams = {OpKind.H2D: H2D_STREAM, OpKind.D2H: D2H_STREAM, OpKind.COMMUNICATION: NCCL_STREAM}
    for op_kind, own_stream in own_streams.items():
        stream[kind == op_kind] = own_stream
    copy = np.isin(kind, [OpKind.H2D, OpKind.D2H, OpKind.D2D])
    nbytes = np.where(copy, rng.integers(1, 64, ops) << 16, 0).astype(np.int64)
    duration = rng.lognormal(9.5, 0.8, ops).astype(np.int64) + 1_000
    duration[kind == OpKind.COMMUNICATION] *= 8
    duration[copy] = nbytes[copy] // 20 + 2_000  # about 20 GB/s
    latency = rng.integers(1_000, 5_000, ops)
    end = _stream_ends(stream, enqueue, duration + latency)
    host_copy = copy & (kind != OpKind.D2D)
    memory = np.where(host_copy, MemoryKind.PINNED, MemoryKind.NONE).astype(np.int8)
    memory[host_copy & (rng.random(ops) < 0.2)] = MemoryKind.PAGEABLE
    fixed_names = [kind == k for k in (OpKind.H2D, OpKind.D2H, OpKind.MEMSET, OpKind.D2D, OpKind.COMMUNICATION)]
    return {
        "kind": kind, "unit": unit_of[kind], "stream": stream, "enqueue_ns": enqueue,
        "ready_ns": end - duration - latency, "start_ns": end - duration, "end_ns": end, "bytes": nbytes,
        "memory": memory, "name": np.select(fixed_names, [0, 1, 2, 3, 4], 100 + rng.integers(0, KERNEL_NAMES, ops)),
        "device": (stream % gpus).astype(np.int16),
    }  # fmt: skip


def _filled(group: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """`group`'s columns, and every column it lacks: unknown (-1), or no bytes and no host memory (0)."""
    from overlapviz.core.trace.columns import COLUMNS

    rows = group["start_ns"].size
    return {name: group.get(name, np.full(rows, 0 if name in ("bytes", "memory") else -1)) for name in COLUMNS}


def _ranges(thread: np.ndarray, start: np.ndarray, end: np.ndarray) -> dict[str, np.ndarray]:
    """record_function ranges around each CALLS_PER_RANGE calls of a thread, ProfilerStep#N around many."""
    from overlapviz.core.trace.spans import OpKind, Unit

    parts: dict[str, list[np.ndarray]] = {"start_ns": [], "end_ns": [], "name": [], "thread": []}
    for t in np.unique(thread):
        rows = np.flatnonzero(thread == t)
        for every, steps in ((CALLS_PER_RANGE, False), (CALLS_PER_STEP, True)):
            first = rows[::every]
            last = rows[np.minimum(np.arange(first.size) * every + every - 1, rows.size - 1)]
            group = np.arange(first.size)
            parts["start_ns"].append(start[first] - 200)
            parts["end_ns"].append(end[last] + 200)
            parts["name"].append(STEP_NAMES + group if steps else 100 + KERNEL_NAMES + group % RANGE_NAMES)
            parts["thread"].append(np.full(first.size, t))
    ranges = {key: np.concatenate(values) for key, values in parts.items()}
    count = ranges["name"].size
    return {**ranges, "kind": np.full(count, OpKind.ANNOTATION), "unit": np.full(count, Unit.HOST),
            "device": np.zeros(count, dtype=np.int16)}  # fmt: skip


def _sorted_by_start(columns: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The rows in the order of their starts, each call's `op` pointing at its op's new row."""
    order = np.argsort(columns["start_ns"], kind="stable")
    new_row = np.empty_like(order)
    new_row[order] = np.arange(order.size)
    out = {key: values[order] for key, values in columns.items()}
    issued = out["op"] >= 0
    out["op"][issued] = new_row[out["op"][issued]]
    return out


def _names(steps: int) -> tuple[str, ...]:
    fixed = [
        "Memcpy HtoD (Pinned -> Device)", "Memcpy DtoH (Device -> Pinned)", "Memset (Device)",
        "Memcpy DtoD (Device -> Device)",
        "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
        "cudaLaunchKernel", "cudaMemcpyAsync", "cudaMemsetAsync", "cudaStreamSynchronize", "cudaMalloc",
    ]  # fmt: skip
    fixed += [f"unused {i}" for i in range(len(fixed), 100)]
    kernels = [f"void at::native::elementwise_kernel<128, {i}>(int, at::native::Op{i})" for i in range(KERNEL_NAMES)]
    ranges = [f"aten::op_{i}" for i in range(RANGE_NAMES)]
    return tuple(fixed + kernels + ranges + [f"ProfilerStep#{i}" for i in range(steps)])


def _timed(label: str, job: Callable[[], Any], seconds: dict[str, float]) -> Any:
    begin = time.perf_counter()
    answer = job()
    seconds[label] = time.perf_counter() - begin
    print(f"  {label:<16} {seconds[label]:8.2f} s", flush=True)
    return answer


def open_steps(trace: Any) -> dict[str, float]:
    """Time the analysis (metrics, findings) and the view's preparation of `trace`, as opening it does."""
    from overlapviz.core.analysis.metrics import compute_metrics
    from overlapviz.core.devices.figures import trace_findings
    from overlapviz.session import RunResult
    from overlapviz.view.prepared import prepare_view

    seconds: dict[str, float] = {}
    metrics = _timed("metrics", lambda: compute_metrics(trace), seconds)
    findings = _timed("findings", lambda: trace_findings(trace, metrics), seconds)
    result = RunResult(trace, metrics, findings, 0.0)
    _timed("prepare_view", lambda: prepare_view(result), seconds)
    seconds["total"] = sum(seconds.values())
    print(f"  {'total':<16} {seconds['total']:8.2f} s")
    return seconds


def _warm_up() -> None:
    """Open a small trace first, so that importing the modules the steps use is not timed."""
    from overlapviz.view.prepared import prepare_trace

    prepare_trace(pytorch_like_trace(2_000))


def _print_profile(profile: cProfile.Profile, top: int) -> None:
    for order in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats(order).print_stats(top)
        print(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spans", type=int, default=1_000_000)
    parser.add_argument("--gpus", type=int, default=1, help="spread the streams over this many GPUs")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top entries")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    begin = time.perf_counter()
    trace = pytorch_like_trace(args.spans, args.gpus)
    print(f"{len(trace):,} spans built in {time.perf_counter() - begin:.1f} s; load {os.getloadavg()[0]:.2f}")
    _warm_up()
    gc.collect()
    profile = cProfile.Profile() if args.profile else None
    if profile is not None:
        profile.enable()
    open_steps(trace)
    if profile is not None:
        profile.disable()
        _print_profile(profile, args.top)
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory {peak_mib:,.0f} MiB; load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
