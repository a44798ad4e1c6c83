"""Reading the real PyTorch profiler traces recorded on the H200 (tests/data/torch)."""

import collections
import json
import re
from decimal import Decimal

import numpy as np
import pytest
from kineto_files import (
    COPY_LOOPS,
    NAMES,
    OLD_RESNET,
    OLD_SMALL,
    ROCM,
    TORCH,
    activities_of,
    document_of,
    encoded,
    others_activities_of,
    others_document_of,
    raw_of,
)

from overlapviz.importers import kineto
from overlapviz.importers.activity import ActivityKind, CopyKind, HostMemory
from overlapviz.importers.kineto import SNIFF_BYTES, looks_like_kineto, read_kineto
from overlapviz.resources import asset_path

ROW_CATEGORIES = {
    "gpu_memcpy": ActivityKind.MEMCPY,
    "gpu_memset": ActivityKind.MEMSET,
    "kernel": ActivityKind.KERNEL,
    "cuda_runtime": ActivityKind.RUNTIME,
    "cuda_driver": ActivityKind.DRIVER,
    "user_annotation": ActivityKind.ANNOTATION,
    "gpu_user_annotation": ActivityKind.ANNOTATION,
    "cuda_sync": ActivityKind.SYNC,
}


def names_of(activities, mask):
    return [activities.names[i] for i in activities["name"][mask].tolist()]


def rows_named(activities, name):
    return np.flatnonzero(np.array(activities.names, dtype=object)[activities["name"]] == name)


@pytest.mark.parametrize("name", NAMES)
def test_every_file_reads_whole(name):
    activities = activities_of(name)
    expected = collections.Counter(
        ROW_CATEGORIES[e["cat"]] for e in document_of(name)["traceEvents"] if e.get("cat") in ROW_CATEGORIES
    )
    assert collections.Counter(ActivityKind(k) for k in activities["kind"].tolist()) == expected
    assert activities.meta["tool"] == "PyTorch profiler"
    assert activities.meta["devices"] == {0: "NVIDIA H200"}
    assert activities.meta["recorded"] == "2026-12-01"  # the date tests/data/torch/README.md gives
    assert activities.meta["cuda_runtime"] == "13.0"
    assert activities.meta["source"] == name
    assert (activities["end_ns"] >= activities["start_ns"]).all()


@pytest.mark.parametrize("name", NAMES)
def test_the_start_of_every_file_looks_like_kineto(name):
    assert looks_like_kineto(raw_of(name)[:SNIFF_BYTES])


def test_other_json_does_not_look_like_kineto():
    own = [path.read_bytes() for path in sorted(asset_path("traces").glob("*.json"))]
    assert own, "overlapviz's own example traces are missing"
    for start in [*own, b"[]", b"not json", b'{"traceEvents": []}', b'{"traceEvents": [{"cat": "kernel"}]}']:
        assert not looks_like_kineto(start[:SNIFF_BYTES]), start[:80]
    assert looks_like_kineto(b' \n{"traceEvents": [{"ph": "X", "cat": "cuda_runtime"')


def copies(activities, kind):
    return (activities["kind"] == ActivityKind.MEMCPY) & (activities["copy_kind"] == kind)


@pytest.mark.parametrize(("name", "host"), [("torch-pageable.json.gz", HostMemory.PAGEABLE),
                                             ("torch-pinned.json.gz", HostMemory.PINNED)])  # fmt: skip
def test_copies_say_which_host_memory(name, host):
    activities = activities_of(name)
    to_device, to_host = copies(activities, CopyKind.H2D), copies(activities, CopyKind.D2H)
    assert to_device.sum() == to_host.sum() == 8
    assert set(activities["src_memory"][to_device].tolist()) == {host}
    assert set(activities["dst_memory"][to_device].tolist()) == {HostMemory.DEVICE}
    assert set(activities["src_memory"][to_host].tolist()) == {HostMemory.DEVICE}
    assert set(activities["dst_memory"][to_host].tolist()) == {host}
    assert set(activities["bytes"][to_device | to_host].tolist()) == {16 * 2**20}


def calls_of_copies(activities):
    """(copy row, the row of the runtime call with its correlation id) for every copy."""
    kind, correlation = activities["kind"], activities["correlation"].tolist()
    calls = {c: row for row, c in enumerate(correlation) if kind[row] == ActivityKind.RUNTIME}
    return [(row, calls[correlation[row]]) for row in np.flatnonzero(kind == ActivityKind.MEMCPY).tolist()]


def durations(activities, rows):
    return activities["end_ns"][rows] - activities["start_ns"][rows]


def test_pinned_non_blocking_copies_return_at_once():
    activities = activities_of("torch-pinned.json.gz")
    pairs = np.array(calls_of_copies(activities))
    assert len(pairs) == 16
    assert (durations(activities, pairs[:, 1]) * 5 < durations(activities, pairs[:, 0])).all()
    assert len(rows_named(activities, "cudaStreamSynchronize")) == 0


def test_blocking_copies_hold_the_host_until_they_are_done():
    # non_blocking=False from pinned memory: cudaMemcpyAsync itself returns at once, and the
    # cudaStreamSynchronize after it keeps the thread until the copy has finished
    activities = activities_of("torch-blocking.json.gz")
    start, end = activities["start_ns"], activities["end_ns"]
    syncs = rows_named(activities, "cudaStreamSynchronize")
    pairs = calls_of_copies(activities)
    assert len(pairs) == 16
    for copy, call in pairs:
        assert activities.names[activities["name"][call]] == "cudaMemcpyAsync"
        assert durations(activities, call) * 5 < durations(activities, copy)
        after = syncs[start[syncs] >= end[call]]
        sync = after[np.argmin(start[after])]
        assert activities["thread"][sync] == activities["thread"][call]
        assert start[sync] < end[copy] <= end[sync]


def test_pageable_copy_calls_last_as_long_as_their_copies():
    activities = activities_of("torch-pageable.json.gz")
    pairs = np.array(calls_of_copies(activities))
    assert (durations(activities, pairs[:, 1]) >= durations(activities, pairs[:, 0])).all()


@pytest.mark.parametrize(("name", "streams"), [("torch-one-stream.json.gz", 1), ("torch-pinned.json.gz", 4)])
def test_copies_and_kernels_run_on_as_many_streams_as_the_loop_used(name, streams):
    activities = activities_of(name)
    device_ops = np.isin(activities["kind"], [ActivityKind.MEMCPY, ActivityKind.KERNEL])
    used = set(activities["stream"][device_ops].tolist())
    assert len(used) == streams
    for kind in (ActivityKind.MEMCPY, ActivityKind.KERNEL):
        assert set(activities["stream"][activities["kind"] == kind].tolist()) == used
    assert set(activities["device"][device_ops].tolist()) == {0}
    host = activities["kind"] == ActivityKind.RUNTIME
    assert set(activities["stream"][host].tolist()) == set(activities["device"][host].tolist()) == {-1}
    assert (activities["thread"][host] > 0).all() and (activities["thread"][device_ops] == -1).all()


@pytest.mark.parametrize("name", COPY_LOOPS)
def test_every_copy_and_kernel_has_its_runtime_call(name):
    activities = activities_of(name)
    kind, correlation, start = activities["kind"], activities["correlation"], activities["start_ns"]
    calls = {c: row for row, c in enumerate(correlation.tolist()) if kind[row] == ActivityKind.RUNTIME}
    expected_call = {ActivityKind.MEMCPY: "cudaMemcpyAsync", ActivityKind.KERNEL: "cudaLaunchKernel"}
    device_rows = np.flatnonzero(np.isin(kind, list(expected_call)))
    assert len(device_rows) == 16 + 192
    for row in device_rows.tolist():
        call = calls[int(correlation[row])]
        assert activities.names[activities["name"][call]] == expected_call[ActivityKind(kind[row])]
        assert start[call] < start[row]


@pytest.mark.parametrize("name", COPY_LOOPS)
def test_chunk_annotations_are_there_on_host_and_device(name):
    activities = activities_of(name)
    annotations = activities["kind"] == ActivityKind.ANNOTATION
    on_device = activities["on_device"] == 1
    chunks = [f"chunk {i}" for i in range(8)]
    assert sorted(names_of(activities, annotations & ~on_device)) == chunks
    assert sorted(names_of(activities, annotations & on_device)) == chunks
    assert (activities["thread"][annotations & ~on_device] > 0).all()
    assert (activities["stream"][annotations & on_device] >= 0).all()


def test_train_steps_are_annotations():
    activities = activities_of("torch-train-step.json.gz")
    annotations = names_of(activities, (activities["kind"] == ActivityKind.ANNOTATION) & (activities["on_device"] == 0))
    assert [name for name in annotations if name.startswith("step ")] == [f"step {i}" for i in range(4)]
    assert not [name for name in annotations if name.startswith("ProfilerStep#")]  # no schedule in this run
    memsets = activities["kind"] == ActivityKind.MEMSET
    assert memsets.sum() == 12 and (activities["bytes"][memsets] > 0).all()
    assert (activities["kind"] == ActivityKind.DRIVER).sum() == 4


def test_profiler_steps_are_annotations_in_either_category():
    document = document_of("torch-train-step.json.gz")
    step = next(e for e in document["traceEvents"] if e.get("name") == "step 1" and e["cat"] == "user_annotation")
    document["traceEvents"] += [{**step, "name": "ProfilerStep#1", "cat": "user_annotation"},
                                {**step, "name": "ProfilerStep#2", "cat": "cpu_op"},
                                {**step, "name": "aten::add", "cat": "cpu_op"}]  # fmt: skip
    activities = read_kineto(encoded(document), "steps.json")
    steps = rows_named(activities, "ProfilerStep#1").tolist() + rows_named(activities, "ProfilerStep#2").tolist()
    assert len(steps) == 2
    assert (activities["kind"][steps] == ActivityKind.ANNOTATION).all()
    assert (activities["thread"][steps] == step["tid"]).all()
    assert len(rows_named(activities, "aten::add")) == 0


def test_times_are_the_exact_nanoseconds_of_the_text():
    text = raw_of("torch-pinned.json.gz").decode()
    event = re.search(r'"cat": "gpu_memcpy", "name": "([^"]+)".*?"ts": ([0-9.]+), "dur": ([0-9.]+)', text, re.S)
    base = int(re.search(r'"baseTimeNanoseconds": ([0-9]+)', text).group(1))
    activities = activities_of("torch-pinned.json.gz")
    first_copy = np.flatnonzero(activities["kind"] == ActivityKind.MEMCPY)[0]
    assert activities.names[activities["name"][first_copy]] == event.group(1)
    start = base + int(Decimal(event.group(2)) * 1000)
    assert activities["start_ns"][first_copy] == start
    assert activities["end_ns"][first_copy] == start + int(Decimal(event.group(3)) * 1000)


def test_epoch_timestamps_without_a_base_time_stay_exact():
    event = {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 0, "dur": 0,
             "args": {"device": 0, "stream": 7, "correlation": 1}}  # fmt: skip
    raw = encoded({"schemaVersion": 1, "traceEvents": [event]})
    raw = raw.replace(b'"ts": 0, "dur": 0', b'"ts": 1764578400123456.789, "dur": 1.001')
    activities = read_kineto(raw, "epoch.json")
    assert activities["start_ns"].tolist() == [1764578400123456789]
    assert activities["end_ns"].tolist() == [1764578400123457790]
    assert "recorded" not in activities.meta  # without baseTimeNanoseconds the clock is the file's own


def test_flows_give_the_correlation_where_args_lack_it():
    document = document_of("torch-pinned.json.gz")
    for event in document["traceEvents"]:
        if event.get("cat") in ROW_CATEGORIES:
            event.get("args", {}).pop("correlation", None)
    activities = read_kineto(encoded(document), "no-correlation.json")
    original = activities_of("torch-pinned.json.gz")
    linked = np.isin(original["kind"], [ActivityKind.MEMCPY, ActivityKind.KERNEL])
    assert (original["correlation"][linked] > 0).all()
    assert (activities["correlation"] == original["correlation"]).all()


def test_a_gpu_record_without_device_and_stream_args_takes_its_pid_and_tid():
    document = document_of("torch-one-stream.json.gz")
    for event in document["traceEvents"]:
        if event.get("cat") == "kernel":
            del event["args"]["device"], event["args"]["stream"]
    activities = read_kineto(encoded(document), "no-stream.json")
    kernels = activities["kind"] == ActivityKind.KERNEL
    assert set(activities["stream"][kernels].tolist()) == {7} and set(activities["device"][kernels].tolist()) == {0}


def test_the_data_folder_holds_the_eight_recorded_files():
    assert len(NAMES) == 8, sorted(TORCH.iterdir())


def same_activities(one, other):
    return (one.names == other.names and one.meta == other.meta and one.columns.keys() == other.columns.keys()
            and all((one[name] == other[name]).all() for name in one.columns))  # fmt: skip


@pytest.mark.parametrize("name", NAMES)
def test_small_batches_read_as_one(name, monkeypatch):
    monkeypatch.setattr(kineto, "BATCH_EVENTS", 100)  # rows, names and flows cross batches
    assert same_activities(read_kineto(raw_of(name), name), activities_of(name))


def test_flows_link_rows_in_other_batches(monkeypatch):
    document = document_of("torch-pinned.json.gz")
    for event in document["traceEvents"]:
        if event.get("cat") in ROW_CATEGORIES:
            event.get("args", {}).pop("correlation", None)
    flows = [e for e in document["traceEvents"] if e.get("cat") == "ac2g"]
    others = [e for e in document["traceEvents"] if e.get("cat") != "ac2g"]
    document["traceEvents"] = flows + others  # every flow end far from the rows it links
    monkeypatch.setattr(kineto, "BATCH_EVENTS", 5)
    activities = read_kineto(encoded(document), "flows-first.json")
    assert (activities["correlation"] == activities_of("torch-pinned.json.gz")["correlation"]).all()


@pytest.mark.parametrize("name", NAMES)
def test_every_row_has_its_process_a_gpu_record_that_of_its_call(name):
    a = activities_of(name)
    host_pids = {e["pid"] for e in document_of(name)["traceEvents"] if e.get("cat") == "cuda_runtime"}
    calls = a.mask(ActivityKind.RUNTIME, ActivityKind.DRIVER)
    assert set(a["process"][calls].tolist()) == host_pids and len(host_pids) == 1 and 0 not in host_pids
    linked = a.mask(ActivityKind.MEMCPY, ActivityKind.MEMSET, ActivityKind.KERNEL) & (a["correlation"] >= 0)
    assert linked.any() and set(a["process"][linked].tolist()) == host_pids  # not the GPU's pid, 0


def test_a_gpu_record_belongs_to_the_process_whose_call_came_last_before_it():
    document = document_of("torch-pinned.json.gz")
    later = json.loads(json.dumps(document["traceEvents"]))
    for event in later:  # the same run again as a second process, a second later, as merged rank traces hold
        if event.get("cat") in ("cuda_runtime", "cpu_op", "user_annotation"):
            event["pid"] = 677
        if "ts" in event:
            event["ts"] = float(event["ts"]) + 1e6
    document["traceEvents"] += later
    a = read_kineto(encoded(document), "two-ranks.json")
    ops = a.mask(ActivityKind.MEMCPY, ActivityKind.KERNEL)
    first = a["start_ns"] < a["start_ns"][ops].min() + 500_000_000  # the first run took well under 0.5 s
    assert set(a["process"][ops & first].tolist()) == {676} and set(a["process"][ops & ~first].tolist()) == {677}


def test_a_rocm_trace_reads_its_hip_calls_text_streams_and_copies_without_sizes():
    a = others_activities_of(ROCM)
    calls = a.mask(ActivityKind.RUNTIME)
    assert len(names_of(a, calls)) == 21 and "hipMemcpyWithStream" in names_of(a, calls)
    copies, kernels = a.mask(ActivityKind.MEMCPY), a.mask(ActivityKind.KERNEL)
    assert copies.sum() == 2 and kernels.sum() == 14
    # "Memcpy HtoD (Host -> Device)": the direction, but not whether the host memory was pinned; no size given
    assert set(a["copy_kind"][copies].tolist()) == {CopyKind.H2D} and set(a["src_memory"][copies].tolist()) == {0}
    assert set(a["bytes"][copies].tolist()) == {0}
    assert set(a["device"][copies | kernels].tolist()) == {2} and set(a["stream"][copies | kernels].tolist()) == {0}
    host_streams = {e["args"].get("stream") for e in others_document_of(ROCM)["traceEvents"]
                    if e.get("cat") == "cuda_runtime"}  # fmt: skip
    assert host_streams == {"0x0", None}  # the texts that a 64-bit integer field refused
    call_ids = set(a["correlation"][calls].tolist())
    assert set(a["correlation"][copies | kernels].tolist()) <= call_ids  # each op has its HIP call


@pytest.mark.parametrize(
    ("name", "counts"),
    [(OLD_SMALL, {ActivityKind.KERNEL: 30, ActivityKind.MEMCPY: 2, ActivityKind.MEMSET: 0, ActivityKind.RUNTIME: 42}),
     (OLD_RESNET, {ActivityKind.KERNEL: 8772, ActivityKind.MEMCPY: 12, ActivityKind.MEMSET: 312,
                   ActivityKind.RUNTIME: 11923})],
)  # fmt: skip
def test_a_pytorch_1_9_trace_reads_its_capitalised_categories_as_the_current_ones(name, counts):
    a = others_activities_of(name)
    assert {kind: int(a.mask(kind).sum()) for kind in counts} == counts  # as the README there counts them
    copies = a.mask(ActivityKind.MEMCPY)
    assert set(names_of(a, copies)) == {"Memcpy HtoD (Pageable -> Device)"}
    assert set(a["copy_kind"][copies].tolist()) == {CopyKind.H2D}
    assert set(a["src_memory"][copies].tolist()) == {HostMemory.PAGEABLE} and (a["bytes"][copies] > 0).all()
    device = a.mask(ActivityKind.MEMCPY, ActivityKind.MEMSET, ActivityKind.KERNEL)
    assert set(a["stream"][device].tolist()) == {7}  # from args: the tid is the text "stream 7"
    assert (a["correlation"][device] >= 0).all()
    steps = a.mask(ActivityKind.ANNOTATION)  # ProfilerStep#N ranges, in the category Operator
    assert steps.any() and all(text.startswith("ProfilerStep#") for text in names_of(a, steps))
    calls = a.mask(ActivityKind.RUNTIME)
    # the host thread, which these files write as text ("25738"), is the number it spells
    assert set(a["thread"][calls].tolist()) <= {int(e["tid"]) for e in others_document_of(name)["traceEvents"]
                                                 if e.get("cat") == "Runtime"} and (a["thread"][calls] > 0).all()
