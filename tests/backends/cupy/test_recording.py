"""Recording the user's own code: the records kept, their rows, and the recorder, on fake CUPTI and CuPy."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import numpy as np
import pytest

import overlapviz
from overlapviz.backends.cupy import cupti_recording as recording
from overlapviz.backends.cupy.cupti_recording import (
    NOT_RECORDED,
    TOOL,
    Recorded,
    RecordingUnavailable,
    cut_to_recording,
)
from overlapviz.backends.cupy.cupti_records import ApiRecord, CuptiMemory, DeviceRecord
from overlapviz.backends.cupy.cupti_sharing import Delivery
from overlapviz.core.config import PipelineConfig
from overlapviz.core.trace.spans import MemoryKind, OpKind
from overlapviz.importers.activity import ActivityKind, CopyKind, HostMemory
from overlapviz.importers.read import read_trace_file
from overlapviz.importers.to_trace import activities_to_trace
from overlapviz.recorded_activities import recorded_activities
from overlapviz.session import analyse
from tests.backends.cupy.fake_cupti import ActivityKind as CuptiKind
from tests.backends.cupy.fake_cupti import activity, install
from tests.backends.cupy.fakes import BASE, THREAD, fake_records, planned_ops

PLAN = planned_ops(PipelineConfig(size_bytes=8 << 20, chunks=4, streams=2))


def recorded(apis: list[ApiRecord], devices: list[DeviceRecord], caveat: str = NOT_RECORDED) -> Recorded:
    return Recorded(apis, devices, 0, "Fake GPU", "2026-12-01", caveat)


def pageable_records() -> tuple[list[ApiRecord], list[DeviceRecord]]:
    """The pipeline's records with pageable host buffers: each copy call returns only when its copy is done."""
    apis, devices = fake_records(PLAN, host_kind=CuptiMemory.PAGEABLE)
    copy_end = {d.correlation_id: d.end_ns for d in devices if d.kind is not OpKind.KERNEL}
    blocked = [
        ApiRecord(
            a.name, a.start_ns, copy_end.get(a.correlation_id, a.end_ns), a.correlation_id, a.thread_id, a.runtime
        )
        for a in apis
    ]
    return blocked, devices


# --- which records a recording keeps ---------------------------------------------------------


def test_only_calls_made_while_recording_are_kept_and_of_nested_calls_the_outer_one():
    outer = ApiRecord("cudaMemcpyAsync_v3020", 100, 200, 7, THREAD, True)
    inner = ApiRecord("cuMemcpyAsync", 110, 190, 7, THREAD, False)
    before = ApiRecord("cudaMalloc_v3020", 10, 20, 3, THREAD, True)
    after = ApiRecord("cudaDeviceSynchronize_v3020", 300, 400, 9, THREAD, True)
    copy = DeviceRecord(OpKind.H2D, 210, 260, 7, 13, nbytes=64)
    earlier = DeviceRecord(OpKind.KERNEL, 30, 40, 3, 13, name="old")
    apis, devices = cut_to_recording(Delivery([before, outer, inner, after], [copy, earlier]), 50, 300)
    assert apis == [outer]
    assert devices == [copy]


def test_records_of_another_client_make_the_caveat_say_so():
    assert recording.caveat_of(Delivery()) == NOT_RECORDED
    shared = recording.caveat_of(Delivery(foreign={"MEMSET": 2}))
    assert shared.startswith(NOT_RECORDED) and "MEMSET x2" in shared


# --- the records as rows -----------------------------------------------------------------------


def test_every_copy_kernel_and_call_becomes_one_row_with_cuptis_kinds_as_ours():
    apis, devices = fake_records(PLAN, host_kind=CuptiMemory.PINNED)
    rows = recorded_activities(recorded(apis, devices), "loop.py")
    assert len(rows) == len(apis) + len(devices)
    copies = rows.mask(ActivityKind.MEMCPY)
    h2d = copies & (rows["copy_kind"] == CopyKind.H2D)
    d2h = copies & (rows["copy_kind"] == CopyKind.D2H)
    assert h2d.sum() == d2h.sum() == 4 and rows.mask(ActivityKind.KERNEL).sum() == 4
    assert set(rows["src_memory"][h2d]) == {HostMemory.PINNED} and set(rows["dst_memory"][h2d]) == {HostMemory.DEVICE}
    assert set(rows["dst_memory"][d2h]) == {HostMemory.PINNED}
    assert rows.names[rows["name"][np.flatnonzero(h2d)[0]]] == "Memcpy HtoD (Pinned -> Device)"
    calls = rows.mask(ActivityKind.RUNTIME, ActivityKind.DRIVER)
    assert set(rows["thread"][calls]) == {THREAD} and set(rows["device"][calls]) == {-1}
    assert rows.mask(ActivityKind.DRIVER).sum() == 4  # the kernels' cuLaunchKernel
    assert "cudaMemcpyAsync" in rows.names and not any(name.endswith("_v3020") for name in rows.names)
    assert sorted(rows["correlation"][calls]) == sorted(a.correlation_id for a in apis)
    assert rows.meta == {
        "tool": TOOL,
        "recorded": "2026-12-01",
        "devices": {0: "Fake GPU"},
        "source": "loop.py",
        "caveat": NOT_RECORDED,
    }


def test_the_rows_make_a_trace_whose_calls_point_at_their_ops():
    apis, devices = fake_records(PLAN, host_kind=CuptiMemory.PAGEABLE)
    trace = activities_to_trace(recorded_activities(recorded(apis, devices), "loop.py"))
    ops = trace.device_mask
    assert int(ops.sum()) == 12 and trace.meta.device_name == "Fake GPU"
    copies = trace.mask(OpKind.H2D, OpKind.D2H)
    assert set(trace["memory"][copies]) == {MemoryKind.PAGEABLE}
    calls = trace.mask(OpKind.API)
    assert int((trace["op"][calls] >= 0).sum()) == 12  # every issuing call, not the synchronize


def test_pageable_copies_that_held_the_host_are_found_and_pinned_ones_are_not():
    pageable = analyse(activities_to_trace(recorded_activities(recorded(*pageable_records()), "loop.py")))
    pinned = analyse(activities_to_trace(recorded_activities(recorded(*fake_records(PLAN)), "loop.py")))
    assert "host-blocked-pageable" in {f.code for f in pageable.findings}
    assert "host-blocked-pageable" not in {f.code for f in pinned.findings}


# --- the recorder, on fake CUPTI and a fake CuPy ---------------------------------------------


class FakeRuntime:
    """What the recording asks of ``cupy.cuda.runtime``."""

    def __init__(self):
        self.synchronized = 0

    def getDevice(self):  # noqa: N802 - CuPy's spelling
        return 0

    def deviceSynchronize(self):  # noqa: N802
        self.synchronized += 1

    def getDeviceProperties(self, device):  # noqa: N802
        return {"name": b"Fake GPU"}


def fake_gpu(monkeypatch):
    """Fake CUPTI (returned) and a fake CuPy behind the recording; CUPTI's clock is just before the records."""
    fake = install(monkeypatch)
    runtime = FakeRuntime()
    monkeypatch.setattr(recording, "_usable_cupy", lambda: SimpleNamespace(cuda=SimpleNamespace(runtime=runtime)))
    fake.clock = BASE - 1_000
    fake.runtime = runtime
    return fake


def cupti_activities(apis, devices):
    """The CUPTI activity records the GPU would deliver for these plain records."""
    out = [
        activity(
            CuptiKind.RUNTIME if a.runtime else CuptiKind.DRIVER,
            cbid=1,
            start=a.start_ns,
            end=a.end_ns,
            correlation_id=a.correlation_id,
            thread_id=a.thread_id,
        )
        for a in apis
    ]
    for d in devices:
        fields = dict(start=d.start_ns, end=d.end_ns, correlation_id=d.correlation_id, stream_id=d.stream_id)
        if d.kind is OpKind.KERNEL:
            out.append(activity(CuptiKind.CONCURRENT_KERNEL, name=d.name, **fields))
        else:
            out.append(
                activity(
                    CuptiKind.MEMCPY,
                    copy_kind=1 if d.kind is OpKind.H2D else 2,
                    bytes=d.nbytes,
                    src_kind=d.src_kind,
                    dst_kind=d.dst_kind,
                    **fields,
                )
            )
    return out


def issue_loop(fake, records=None):
    """The GPU runs the pipeline's records; CUPTI's clock then reads after them."""
    apis, devices = records or pageable_records()
    fake.issue(*cupti_activities(apis, devices))
    fake.clock = max(a.end_ns for a in apis) + 1


def test_a_recording_keeps_what_ran_inside_it_and_drops_what_came_before(monkeypatch):
    fake = fake_gpu(monkeypatch)
    recording.shared_collector()  # an earlier user of CUPTI in this process
    fake.issue(
        activity(
            CuptiKind.MEMCPY,
            start=5,
            end=9,
            correlation_id=1,
            stream_id=13,
            copy_kind=1,
            bytes=4,
            src_kind=2,
            dst_kind=3,
        )
    )
    with recording.Recording() as rec:
        issue_loop(fake)
    assert fake.runtime.synchronized == 1
    assert rec.recorded is not None
    assert len(rec.recorded.devices) == 12 and {d.start_ns >= BASE for d in rec.recorded.devices} == {True}
    assert rec.recorded.device_name == "Fake GPU" and rec.recorded.caveat == NOT_RECORDED


def test_a_recording_refuses_to_start_while_another_profiler_holds_cupti(monkeypatch):
    fake = fake_gpu(monkeypatch)
    fake.take_subscription()
    with pytest.raises(RecordingUnavailable, match="another profiler"):
        recording.Recording().__enter__()


def test_record_analyses_the_block_summarises_and_saves(monkeypatch, tmp_path):
    fake = fake_gpu(monkeypatch)
    with overlapviz.record() as rec:
        issue_loop(fake)
    summary = rec.summary()
    assert f"recorded   by {TOOL}" in summary and "host-blocked" not in summary  # codes are not shown, words are
    assert "pageable, so the driver stages every copy" in summary
    assert f"note       {NOT_RECORDED}" in summary
    assert "host-blocked-pageable" in {f.code for f in rec.findings}
    assert rec.metrics.makespan_ns > 0 and len(rec.trace) == len(rec.activities)
    saved = rec.save(tmp_path / "loop.json")
    assert int(read_trace_file(saved).device_mask.sum()) == 12


def test_record_before_its_block_says_how_to_use_it():
    with pytest.raises(RuntimeError, match=r"with overlapviz\.record"):
        overlapviz.record().trace  # noqa: B018 - the property is what raises


def test_record_without_cupy_says_so_on_entering(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)  # import cupy then raises ImportError
    with pytest.raises(RecordingUnavailable, match="CuPy is not installed"):
        overlapviz.record().__enter__()
    assert issubclass(RecordingUnavailable, RuntimeError)
