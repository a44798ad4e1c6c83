"""Metrics and findings of the host memory kinds, on hand-built traces (the model's runs: tests/backends)."""

from __future__ import annotations

from overlapviz.core.analysis.metrics import compute_metrics, engines_together_ns, lower_bound_ns
from overlapviz.core.config import MIB, PipelineConfig
from overlapviz.core.findings import find_findings
from overlapviz.core.findings.memory import STAGING_HOST_SHARE
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import MemoryKind, OpKind, Trace, TraceBuilder, Unit

US = 1_000


def meta(**config: object) -> TraceMeta:
    return TraceMeta(config=PipelineConfig(**config).to_dict(), device_facts={"copy_engines": 3})  # type: ignore[arg-type]


def codes(trace: Trace) -> list[str]:
    return [finding.code for finding in find_findings(trace)]


def staged_trace(host_copy_ns: int) -> Trace:
    """One chunk through the ring: a host copy in, H2D, kernel, D2H, the copy out after an event wait."""
    b = TraceBuilder()
    b.add(OpKind.HOST_COPY, Unit.HOST, 0, host_copy_ns, name="memcpy pageable->pinned", chunk=0, nbytes=MIB)
    t = host_copy_ns
    h2d = b.add(OpKind.H2D, Unit.H2D_ENGINE, t + 10 * US, t + 30 * US, name="memcpy HtoD", stream=0, chunk=0,
                nbytes=MIB, memory=MemoryKind.PINNED)  # fmt: skip
    b.add(OpKind.API, Unit.HOST, t, t + 10 * US, name="cudaMemcpyAsync", op=h2d)
    k = b.add(OpKind.KERNEL, Unit.COMPUTE, t + 30 * US, t + 60 * US, name="fma_chain", stream=0, chunk=0)
    b.add(OpKind.API, Unit.HOST, t + 10 * US, t + 20 * US, name="cuLaunchKernel", op=k)
    d2h = b.add(OpKind.D2H, Unit.D2H_ENGINE, t + 60 * US, t + 80 * US, name="memcpy DtoH", stream=0, chunk=0,
                nbytes=MIB, memory=MemoryKind.PINNED)  # fmt: skip
    b.add(OpKind.API, Unit.HOST, t + 20 * US, t + 30 * US, name="cudaMemcpyAsync", op=d2h)
    b.add(OpKind.API, Unit.HOST, t + 30 * US, t + 80 * US, name="cudaEventSynchronize")
    b.add(OpKind.HOST_COPY, Unit.HOST, t + 80 * US, t + 80 * US + host_copy_ns, name="memcpy pinned->pageable",
          chunk=0, nbytes=MIB)  # fmt: skip
    return b.build(meta(memory="staged", chunks=1, streams=1, size_bytes=MIB))


def test_the_hosts_own_copies_and_waits_are_not_issuing_time() -> None:
    metrics = compute_metrics(staged_trace(host_copy_ns=500 * US))
    assert metrics.host_issue_ns == 30 * US  # the three calls back to back; not the copies, not the wait
    assert metrics.wall_ns == 500 * US + 80 * US + 500 * US
    assert metrics.makespan_ns == 70 * US  # the device's part: the host copies are no device ops


def test_a_ring_whose_host_copies_take_half_the_run_is_host_bound_and_only_then() -> None:
    assert "staging-host-bound" in codes(staged_trace(host_copy_ns=500 * US))
    short = staged_trace(host_copy_ns=10 * US)  # 20 us of copies in a 100 us run
    assert STAGING_HOST_SHARE * compute_metrics(short).wall_ns > 20 * US
    assert "staging-host-bound" not in codes(short)


def test_ram_pinned_follows_the_config_and_is_unknown_without_one() -> None:
    assert compute_metrics(staged_trace(10 * US)).pinned_bytes == 2 * MIB  # one slot: an input and an output
    b = TraceBuilder()
    b.add(OpKind.KERNEL, Unit.COMPUTE, 0, 10, name="k", stream=0)
    other = b.build(TraceMeta())
    assert compute_metrics(other).pinned_bytes is None and compute_metrics(other).to_dict()["pinned_bytes"] is None


def prefetch_trace() -> Trace:
    b = TraceBuilder()
    b.add(OpKind.PREFETCH, Unit.H2D_ENGINE, 0, 40 * US, name="prefetch to device", stream=0, chunk=0, nbytes=MIB,
          memory=MemoryKind.MANAGED)  # fmt: skip
    b.add(OpKind.KERNEL, Unit.COMPUTE, 40 * US, 50 * US, name="fma_chain", stream=0, chunk=0)
    b.add(OpKind.PREFETCH, Unit.D2H_ENGINE, 50 * US, 150 * US, name="prefetch to host", stream=0, chunk=0, nbytes=MIB,
          memory=MemoryKind.MANAGED)  # fmt: skip
    return b.build(meta(memory="managed-prefetch", chunks=1, streams=1, size_bytes=MIB))


def test_prefetches_keep_their_engines_busy_but_move_no_copy_bytes() -> None:
    trace = prefetch_trace()
    metrics = compute_metrics(trace)
    assert lower_bound_ns(trace) == 100 * US  # the prefetch to the host holds the D2H engine longest
    assert engines_together_ns(trace) == 0
    assert metrics.bandwidth_gbps == {"h2d": None, "d2h": None} and metrics.busy_ns["d2h"] == 0
    assert metrics.makespan_ns == 150 * US and metrics.serial_ns == 150 * US


def test_prefetches_that_take_the_run_say_they_set_the_pace() -> None:
    found = [f for f in find_findings(prefetch_trace()) if f.code == "prefetch-bound"]
    assert len(found) == 1
    assert "one at a time" in found[0].message and "prefetch to host 10.5 GB/s" in found[0].message


def test_another_programs_trace_gets_no_memory_finding() -> None:
    trace = prefetch_trace().with_meta(config=None)
    assert not {"prefetch-bound", "staging-host-bound", "mapped-memory"} & set(codes(trace))
