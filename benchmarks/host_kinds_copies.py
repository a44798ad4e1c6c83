"""Write-combined pinned memory and mapped (zero-copy) memory: copies, host access, kernels over PCIe.

- write-combined: H2D and D2H copy time by size next to pageable and plain pinned memory;
  the host's reads and writes of each kind (write-combined memory is not cached, so reads are
  slow); the default pipeline with both host buffers write-combined, with a host read of its
  output after each run.
- mapped: a kernel that reads a buffer and writes one (``scale_copy``), each side in mapped
  host memory or in device memory, by size; the pipeline's kernel on each chunk of a mapped
  buffer, in place, with no copies, next to the same kernels on device memory.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from benchmarks.host_kinds_gpu import (
    D2H,
    H2D,
    HOST_ALLOC_DEFAULT,
    HOST_ALLOC_MAPPED,
    HOST_ALLOC_WRITE_COMBINED,
    Allocations,
    FloatArray,
    Gpu,
    PipelineOps,
    chunk_copy,
    chunk_kernel,
    copy_launch,
    event_times,
    gbps,
    host_times,
    host_view,
    issue_all,
    issue_list,
    mapped_device_pointer,
    median,
    pipeline_shape,
)
from benchmarks.host_kinds_record import MIB, Part, Settings
from benchmarks.host_kinds_runs import Checked, RunSpec, poison, repeat_runs, restore, timed_host_read
from overlapviz.core.config import DEFAULT_ITERS, FLOAT32_BYTES, PipelineConfig

COPY_KINDS = {"pinned": HOST_ALLOC_DEFAULT, "write-combined": HOST_ALLOC_WRITE_COMBINED}


def write_combined(gpu: Gpu, settings: Settings, part: Part) -> None:
    for kind in ("pageable", *COPY_KINDS):
        part.measure(f"copies {kind}", lambda kind=kind: copy_sweep(gpu, settings, kind))
    for kind in ("pageable", *COPY_KINDS):
        part.measure(f"host access {kind}", lambda kind=kind: host_access(gpu, settings, kind))
    for kind in COPY_KINDS:  # the pageable pipeline is measured with the staging ring
        part.measure(f"pipeline {kind}", lambda kind=kind: [copy_pipeline(gpu, settings, kind)])


def host_buffer(memory: Allocations, kind: str, nbytes: int) -> FloatArray:
    """A host buffer of `kind`: pageable (touched), pinned or write-combined (zero-filled)."""
    if kind == "pageable":
        return memory.pageable(nbytes)
    return host_view(memory.host(nbytes, COPY_KINDS[kind]), nbytes)


def copy_sweep(gpu: Gpu, settings: Settings, kind: str) -> list[dict[str, Any]]:
    """One ``cudaMemcpyAsync`` at a time, each size and direction; device ms and the call's host ms."""
    largest = max(settings.copy_sizes)
    stream, memcpy = gpu.streams[0], gpu.runtime.memcpyAsync
    rows = []
    calls: list[float] = []  # host ms inside each call of the current size and direction
    with Allocations(gpu) as memory:
        host = int(host_buffer(memory, kind, largest).ctypes.data)
        device = memory.device(largest)
        for size in settings.copy_sizes:
            for direction, code in (("h2d", H2D), ("d2h", D2H)):
                dst, src = (device, host) if code == H2D else (host, device)
                calls.clear()

                def issue(dst: int = dst, src: int = src, code: int = code, size: int = size) -> None:
                    begin = time.perf_counter_ns()
                    memcpy(dst, src, size, code, stream.ptr)
                    calls.append((time.perf_counter_ns() - begin) / 1e6)

                times = event_times(gpu, stream, issue, settings.repeats, settings.warm_ups)
                ms = median(times)
                rows.append({
                    "memory": kind, "direction": direction, "size_bytes": size, "ms": round(ms, 5),
                    "gbps": gbps(size, ms), "call_ms": round(median(calls[settings.warm_ups:]), 5),
                    "ms_runs": [round(t, 5) for t in times],
                })  # fmt: skip
    return rows


def host_access(gpu: Gpu, settings: Settings, kind: str) -> list[dict[str, Any]]:
    """The host reading (``sum``, copy out) and writing (copy in) a buffer of `kind`, by size.

    Small buffers are read from the CPU's caches where the memory type allows it (pageable,
    pinned); write-combined memory bypasses them. A size whose read is predicted, from the
    previous size, to take longer than the settings allow is skipped.
    """
    largest = max(settings.host_sizes)
    rows: list[dict[str, Any]] = []
    with Allocations(gpu) as memory:
        buffer = host_buffer(memory, kind, largest)
        scratch = memory.pageable(largest)
        rates: dict[str, float] = {}
        for size in settings.host_sizes:
            n = size // FLOAT32_BYTES
            view, other = buffer[:n], scratch[:n]
            for op, work in (
                ("read_sum", lambda view=view: float(view.sum())),
                ("read_copy", lambda view=view, other=other: np.copyto(other, view)),
                ("write_copy", lambda view=view, other=other: np.copyto(view, other)),
            ):
                predicted_s = size / rates[op] / 1e9 if op in rates else 0.0
                if predicted_s * (settings.repeats + 1) > settings.host_op_limit_s:
                    rows.append({"memory": kind, "op": op, "size_bytes": size,
                                 "skipped": f"predicted {predicted_s:.2f} s per {op}"})  # fmt: skip
                    continue
                times = host_times(work, settings.repeats, warm_ups=1)
                ms = median(times)
                rates[op] = gbps(size, ms) or float("inf")
                rows.append({"memory": kind, "op": op, "size_bytes": size, "ms": round(ms, 5), "gbps": gbps(size, ms),
                             "ms_runs": [round(t, 5) for t in times]})  # fmt: skip
    return rows


def read_budget_bytes(view: FloatArray, scratch: FloatArray, seconds: float) -> int:
    """How many bytes of `view` the host can copy out in about `seconds` (1 MiB probe; at least 1 MiB)."""
    n = min(len(view), MIB // FLOAT32_BYTES)
    begin = time.perf_counter()
    np.copyto(scratch[:n], view[:n])
    rate = n * FLOAT32_BYTES / max(time.perf_counter() - begin, 1e-9)
    return max(MIB, min(view.nbytes, int(rate * seconds) // MIB * MIB))


def copy_ops(gpu: Gpu, config: PipelineConfig, device: int, host_in: FloatArray, host_out: FloatArray) -> PipelineOps:
    """The pipeline's ops as the backend issues them: H2D from `host_in`, the kernel, D2H into `host_out`."""
    return PipelineOps(
        h2d=chunk_copy(gpu, config, device, int(host_in.ctypes.data), H2D),
        kernel=chunk_kernel(gpu, config, device),
        d2h=chunk_copy(gpu, config, int(host_out.ctypes.data), device, D2H),
    )


def copy_pipeline(gpu: Gpu, settings: Settings, kind: str) -> dict[str, Any]:
    """The default pipeline with both host buffers of `kind` (pageable, pinned, write-combined).

    After each run the host reads the output (timed; as much of it as the settings' host-read
    time allows, since write-combined reads are slow).
    """
    config = settings.pipeline()
    checked = Checked.of(config)
    with Allocations(gpu) as memory:
        host_in = host_buffer(memory, kind, config.size_bytes)
        host_out = host_buffer(memory, kind, config.size_bytes)
        scratch = memory.pageable(config.size_bytes)
        np.copyto(host_in, checked.reference)
        ops = copy_ops(gpu, config, memory.device(config.size_bytes), host_in, host_out)
        per_run_s = settings.host_op_limit_s / (settings.repeats + settings.warm_ups)
        read_limit = read_budget_bytes(host_out, scratch, per_run_s)
        spec = RunSpec(
            issue=issue_all(issue_list(config, gpu.streams, ops)),
            output=host_out,
            reset=poison(checked, host_out),
            after=lambda: timed_host_read(host_out, scratch, read_limit),
        )
        result = repeat_runs(gpu, gpu.streams, spec, checked, settings.repeats, settings.warm_ups)
        pinned_bytes = memory.pinned_bytes
    return {"memory": kind, "pipeline": pipeline_shape(config), "pinned_bytes": pinned_bytes, **result}


# --- mapped (zero-copy) ---------------------------------------------------------------------------

PATTERNS = {  # (source in mapped host memory?, destination in mapped host memory?)
    "host->host": (True, True),
    "host->device": (True, False),
    "device->host": (False, True),
    "device->device": (False, False),
}


def mapped(gpu: Gpu, settings: Settings, part: Part) -> None:
    part.measure("device pointer", lambda: mapped_pointer_fact(gpu))
    for pattern in PATTERNS:
        part.measure(f"kernel {pattern}", lambda pattern=pattern: mapped_kernel_sweep(gpu, settings, pattern))
    for iters in (DEFAULT_ITERS, 0):
        for where in ("mapped", "device"):
            label = f"pipeline {where} iters {iters}"
            part.measure(label, lambda where=where, iters=iters: [kernel_pipeline(gpu, settings, where, iters)])


def mapped_pointer_fact(gpu: Gpu) -> dict[str, Any]:
    """Whether the device address of mapped memory is its host address (unified addressing)."""
    with Allocations(gpu) as memory:
        host = memory.host(MIB, HOST_ALLOC_MAPPED)
        device = mapped_device_pointer(gpu, host)
    return {"device_pointer_is_host_pointer": device == host, "unified_addressing": gpu.facts["unified_addressing"]}


def mapped_kernel_sweep(gpu: Gpu, settings: Settings, pattern: str) -> list[dict[str, Any]]:
    """``scale_copy`` of each size from source to destination; bytes that cross PCIe and their rate."""
    src_mapped, dst_mapped = PATTERNS[pattern]
    largest = max(settings.kernel_sizes)
    stream = gpu.streams[0]
    rows = []
    with Allocations(gpu) as memory:

        def buffer(in_host: bool) -> int:
            if in_host:
                return mapped_device_pointer(gpu, memory.host(largest, HOST_ALLOC_MAPPED))
            return memory.device(largest)

        src, dst = buffer(src_mapped), buffer(dst_mapped)
        for size in settings.kernel_sizes:
            launch = copy_launch(gpu, src, dst, size // FLOAT32_BYTES)
            times = event_times(gpu, stream, lambda launch=launch: launch(stream), settings.repeats, settings.warm_ups)
            ms = median(times)
            pcie_bytes = size * (int(src_mapped) + int(dst_mapped))
            rows.append({
                "pattern": pattern, "size_bytes": size, "ms": round(ms, 5), "pcie_bytes": pcie_bytes,
                "pcie_gbps": gbps(pcie_bytes, ms) if pcie_bytes else None, "read_write_gbps": gbps(2 * size, ms),
                "ms_runs": [round(t, 5) for t in times],
            })  # fmt: skip
    return rows


def kernel_pipeline(gpu: Gpu, settings: Settings, where: str, iters: int) -> dict[str, Any]:
    """The pipeline's kernels alone, in place on each chunk of a mapped host buffer or a device one.

    Mapped: no copies at all, the kernels read and write host memory across PCIe. Device: the
    compute floor of the same kernels. The buffer is reset to the input before each run (untimed).
    """
    config = settings.pipeline(iters=iters)
    checked = Checked.of(config)
    runtime = gpu.runtime
    with Allocations(gpu) as memory:
        if where == "mapped":
            host = memory.host(config.size_bytes, HOST_ALLOC_MAPPED)
            output = host_view(host, config.size_bytes)
            base = mapped_device_pointer(gpu, host)
            reset = restore(checked, output)
            after = None
        else:
            base = memory.device(config.size_bytes)
            output = memory.pageable(config.size_bytes)
            reference = int(checked.reference.ctypes.data)

            def reset() -> None:
                runtime.memcpy(base, reference, config.size_bytes, H2D)

            def after() -> dict[str, float]:  # fetch the output for the check, untimed
                runtime.memcpy(int(output.ctypes.data), base, config.size_bytes, D2H)
                return {}

        ops = PipelineOps(h2d=None, kernel=chunk_kernel(gpu, config, base), d2h=None)
        spec = RunSpec(issue_all(issue_list(config, gpu.streams, ops)), output, reset, after)
        result = repeat_runs(gpu, gpu.streams, spec, checked, settings.repeats, settings.warm_ups)
    bytes_over_pcie = 2 * config.size_bytes if where == "mapped" else 0
    result["pcie_gbps"] = gbps(bytes_over_pcie, result["makespan_ms"]) if bytes_over_pcie else None
    return {"memory": where, "pipeline": pipeline_shape(config), **result}
