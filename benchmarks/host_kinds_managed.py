"""Managed memory: the pipeline's kernel on data first touched by the host, with and without prefetch.

Before every run the host writes the input into the managed buffer (untimed), so its pages
live in host memory. Without prefetch the kernel faults them over as it touches them (its time
grows) and the host's read afterwards faults them back. With prefetch, ``cudaMemPrefetchAsync``
moves them to the device on the stream first (a timed, copy-like op), and back to the host
after the kernel. Both for the whole buffer at once and for the default chunked pipeline.
"""

from __future__ import annotations

from typing import Any

from benchmarks.host_kinds_gpu import (
    D2H,
    H2D,
    Allocations,
    Gpu,
    Issue,
    PipelineOps,
    Prefetch,
    chunk_kernel,
    fma_launch,
    gbps,
    host_view,
    issue_all,
    issue_list,
    median,
    pipeline_shape,
    prefetch_to_device,
)
from benchmarks.host_kinds_prefetch import host_prefetcher
from benchmarks.host_kinds_record import MIB, Part, Settings
from benchmarks.host_kinds_runs import Checked, RunSpec, repeat_runs, restore, timed_host_read
from overlapviz.backends.cupy.plan import chunk_slices
from overlapviz.core.config import DEFAULT_ITERS


def managed(gpu: Gpu, settings: Settings, part: Part) -> None:
    found: dict[str, Prefetch] = {}
    part.measure("prefetch to host", lambda: _find_host_prefetch(gpu, found))
    to_host = found.get("to_host")
    for iters in (DEFAULT_ITERS, 0):
        part.measure(f"whole buffer iters {iters}", lambda iters=iters: whole_buffer(gpu, settings, iters, to_host))
    for prefetch in (False, True):
        if prefetch and to_host is None:
            continue
        label = "pipeline managed" + "-prefetch" * prefetch
        part.measure(label, lambda prefetch=prefetch: [managed_pipeline(gpu, settings, to_host if prefetch else None)])


def _find_host_prefetch(gpu: Gpu, found: dict[str, Prefetch]) -> dict[str, Any]:
    """Which call prefetches to the host here (probed on 2 MiB of managed memory); kept in `found`."""
    with Allocations(gpu) as memory:
        probe = memory.managed(2 * MIB)
        host_view(probe, 2 * MIB).fill(1.0)
        found["to_host"], method, failed = host_prefetcher(gpu, probe, 2 * MIB)
    return {"method": method, "failed": failed}


def _stage_times(gpu: Gpu, stream: Any, stages: list[tuple[str, Issue]]) -> dict[str, float]:
    """Device ms of each stage, issued back to back on `stream` with an event between stages."""
    events = [gpu.event() for _ in range(len(stages) + 1)]
    events[0].record(stream)
    for (_, issue), event in zip(stages, events[1:], strict=True):
        issue()
        event.record(stream)
    events[-1].synchronize()
    return {name: gpu.elapsed_ms(a, b) for (name, _), a, b in zip(stages, events, events[1:], strict=False)}


def whole_buffer(gpu: Gpu, settings: Settings, iters: int, to_host: Prefetch | None) -> list[dict[str, Any]]:
    """One kernel over the whole buffer: on device memory, on managed memory, on prefetched managed memory."""
    config = settings.pipeline(iters=iters, chunks=1, streams=1)
    checked = Checked.of(config)
    nbytes, stream, runtime = config.size_bytes, gpu.streams[0], gpu.runtime
    to_device = prefetch_to_device(gpu)
    rows = []
    with Allocations(gpu) as memory:
        device = memory.device(nbytes)
        managed_address = memory.managed(nbytes)
        view = host_view(managed_address, nbytes)
        scratch = memory.pageable(nbytes)
        reference = int(checked.reference.ctypes.data)
        on_device = fma_launch(gpu, device, config.elements, iters)  # built here: not between the events
        on_managed = fma_launch(gpu, managed_address, config.elements, iters)
        variants: dict[str, list[tuple[str, Issue]]] = {
            "device": [("kernel_ms", lambda: on_device(stream))],
            "managed": [("kernel_ms", lambda: on_managed(stream))],
        }
        if to_host is not None:
            back = to_host
            variants["managed-prefetch"] = [
                ("prefetch_to_device_ms", lambda: to_device(managed_address, nbytes, stream)),
                ("kernel_ms", lambda: on_managed(stream)),
                ("prefetch_to_host_ms", lambda: back(managed_address, nbytes, stream)),
            ]
        for name, stages in variants.items():
            runs, verdicts = [], []
            for index in range(settings.warm_ups + settings.repeats):
                if name == "device":
                    runtime.memcpy(device, reference, nbytes, H2D)
                else:
                    restore(checked, view)()  # the host touches every page: they live on the host now
                times = _stage_times(gpu, stream, stages)
                if name == "device":
                    runtime.memcpy(int(scratch.ctypes.data), device, nbytes, D2H)
                else:
                    times.update(timed_host_read(view, scratch, nbytes))  # faults back, unless prefetched
                verdicts.append(checked.verdict(scratch))
                if index >= settings.warm_ups:
                    runs.append(times)
            row: dict[str, Any] = {"memory": name, "iters": iters, "size_bytes": nbytes}
            for key in runs[0]:
                row[key] = round(median([r[key] for r in runs]), 4)
            for key in ("prefetch_to_device_ms", "prefetch_to_host_ms"):
                if key in row:
                    row[key.replace("_ms", "_gbps")] = gbps(nbytes, row[key])
            bad = [v for v in verdicts if v != "ok"]
            row["output"] = "ok" if not bad else f"{len(bad)} of {len(verdicts)} runs wrong: {bad[0]}"
            row["kernel_ms_runs"] = [round(r["kernel_ms"], 4) for r in runs]
            rows.append(row)
    return rows


def managed_pipeline(gpu: Gpu, settings: Settings, to_host: Prefetch | None) -> dict[str, Any]:
    """The default pipeline on a managed buffer: kernels alone, or each chunk prefetched there and back.

    After each run the host reads the whole output (timed): with prefetch the pages are back
    already; without, this read faults them back.
    """
    config = settings.pipeline()
    checked = Checked.of(config)
    slices = chunk_slices(config)
    to_device = prefetch_to_device(gpu)
    with Allocations(gpu) as memory:
        base = memory.managed(config.size_bytes)
        view = host_view(base, config.size_bytes)
        scratch = memory.pageable(config.size_bytes)
        h2d = d2h = None
        if to_host is not None:
            back = to_host

            def h2d(chunk: int, stream: Any) -> None:
                to_device(base + slices[chunk].byte_offset, slices[chunk].nbytes, stream)

            def d2h(chunk: int, stream: Any) -> None:
                back(base + slices[chunk].byte_offset, slices[chunk].nbytes, stream)

        ops = PipelineOps(h2d=h2d, kernel=chunk_kernel(gpu, config, base), d2h=d2h)
        spec = RunSpec(
            issue=issue_all(issue_list(config, gpu.streams, ops)),
            output=scratch,
            reset=restore(checked, view),
            after=lambda: timed_host_read(view, scratch, config.size_bytes),
        )
        result = repeat_runs(gpu, gpu.streams, spec, checked, settings.repeats, settings.warm_ups)
    memory_kind = "managed-prefetch" if to_host is not None else "managed"
    return {"memory": memory_kind, "pipeline": pipeline_shape(config), **result}
