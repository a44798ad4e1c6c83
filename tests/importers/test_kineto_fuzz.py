"""Mutated real PyTorch profiler traces: each reads into sane activities, or is refused in one line."""

import copy
import json

import numpy as np
import pytest
from fuzzing import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st
from kineto_files import NAMES, document_of

from overlapviz.importers.activity import ActivityKind, CopyKind, HostMemory
from overlapviz.importers.kineto import KinetoFormatError, read_kineto

pytestmark = pytest.mark.fuzz

SOURCE = "trace.json"
ROW_CATEGORIES = {"gpu_memcpy", "gpu_memset", "kernel", "cuda_runtime", "cuda_driver", "user_annotation",
                  "gpu_user_annotation"}  # fmt: skip
DEVICE_KINDS = [ActivityKind.MEMCPY, ActivityKind.MEMSET, ActivityKind.KERNEL]
HOST_KINDS = [ActivityKind.RUNTIME, ActivityKind.DRIVER]
_DOCUMENTS = {name: document_of(name) for name in NAMES}
_DELETE = object()


def _paths(document):
    """Every path to a value inside a JSON document (without recursion)."""
    pending, found = [((), document)], []
    while pending:
        prefix, value = pending.pop()
        found.append(prefix)
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        pending.extend(((*prefix, key), item) for key, item in items)
    return [path for path in found if path]


def _aims(document):
    """Where a mutation may aim: anywhere, at the rows, at their times, at the top-level keys."""
    paths = _paths(document)
    events = document["traceEvents"]
    in_rows = [p for p in paths if len(p) > 2 and p[0] == "traceEvents" and events[p[1]].get("cat") in ROW_CATEGORIES]
    return {
        "anywhere": paths,
        "rows": in_rows,
        "times": [p for p in in_rows if len(p) == 3 and p[2] in ("ts", "dur", "ph", "cat", "pid", "tid")],
        "args": [p for p in in_rows if len(p) == 4 and p[2] == "args"],
        "top": [p for p in paths if p[0] != "traceEvents"] + [("traceEvents",)],
    }


_AIMS = {name: _aims(document) for name, document in _DOCUMENTS.items()}

# What a mutation puts in place of a value: the kinds of value that break readers.
_HUGE_TEXT = "x" * 2_000_000
_REPLACEMENTS = st.one_of(
    st.sampled_from([
        None, True, -1, 0, 2**31, 2**63, -(2**63) - 1, 10**30, 1.5, -0.001, 1e300, 1.5e-7, float("inf"), "", "abc",
        _HUGE_TEXT, [], {}, {"a": 1}, [1, 2], 32768, 4 * 10**15, "X", "i", "gpu_memcpy", "cuda_runtime", "kernel",
        "ProfilerStep#1", "Memcpy HtoD (Pinned -> Device)", "Memcpy ZtoQ (Weird -> Device)", "5259022113484.411",
        {"device": 0, "stream": -5, "bytes": -1, "correlation": -7},
    ]),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=8),
)  # fmt: skip
_NESTED = st.sampled_from([20, 2000]).map(lambda depth: ("nested", depth))

# One mutation, kept small so that a failing example prints as a few values, not a file:
# set or delete a value (which part of the file, where in it as a fraction), or spoil the
# written bytes (cut them short, or change one byte).
_MUTATION = st.one_of(
    st.tuples(st.just("set"), st.sampled_from(sorted(_AIMS[NAMES[0]])), st.floats(0, 1, exclude_max=True),
              st.one_of(_REPLACEMENTS, _NESTED)),
    st.tuples(st.just("delete"), st.sampled_from(sorted(_AIMS[NAMES[0]])), st.floats(0, 1, exclude_max=True)),
    st.tuples(st.sampled_from(["cut", "byte"]), st.floats(0, 1, exclude_max=True), st.integers(0, 255)),
)  # fmt: skip


def _copied(value):
    return dict(value) if isinstance(value, dict) else list(value) if isinstance(value, list) else value


def _changed(document, path, value):
    """`document` with the value at `path` replaced (or deleted), sharing all that is unchanged."""
    root = target = _copied(document)
    for step in path[:-1]:
        target[step] = _copied(target[step])
        target = target[step]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return root


def mutated(name, mutations):
    """A real trace with `mutations` applied, as the bytes of a file."""
    document, spoils = _DOCUMENTS[name], []
    for mutation in mutations:
        if mutation[0] in ("cut", "byte"):
            spoils.append(mutation)
            continue
        _, part, where, *value = mutation
        paths = _AIMS[name][part] or _AIMS[name]["anywhere"]
        replacement = value[0] if value else _DELETE
        if isinstance(replacement, tuple):
            replacement = f"__nested_{replacement[1]}__"  # written as brackets below: json.dumps recurses
        elif replacement is not _DELETE:
            replacement = copy.deepcopy(replacement)  # a fresh copy: one list placed twice could nest in itself
        try:
            document = _changed(document, paths[int(where * len(paths))], replacement)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation took that path away
    raw = json.dumps(document).encode()
    for depth in (20, 2000):
        raw = raw.replace(b'"__nested_%d__"' % depth, b"[" * depth + b"]" * depth)
    for how, where, byte in spoils:
        at = int(where * len(raw))
        raw = raw[:at] if how == "cut" else raw[:at] + bytes([byte]) + raw[at + 1 :]
    return raw


def assert_sane(activities):
    kind, start, end = activities["kind"], activities["start_ns"], activities["end_ns"]
    device_rows = np.isin(kind, DEVICE_KINDS)
    host_rows = np.isin(kind, HOST_KINDS)
    assert set(kind.tolist()) <= set(ActivityKind)
    assert (start >= 0).all() and (end >= start).all()
    assert len(set(activities.names)) == len(activities.names)
    assert all(isinstance(name, str) for name in activities.names)
    assert set(activities["name"].tolist()) == set(range(len(activities.names)))
    assert ((activities["device"] >= -1) & (activities["device"] <= 2**15 - 1)).all()
    assert (activities["device"][host_rows] == -1).all() and (activities["stream"][host_rows] == -1).all()
    assert (activities["thread"][device_rows] == -1).all()
    assert (activities["stream"] >= -1).all() and (activities["correlation"] >= -1).all()
    sized = np.isin(kind, [ActivityKind.MEMCPY, ActivityKind.MEMSET])
    assert (activities["bytes"] >= 0).all() and (activities["bytes"][~sized] == 0).all()
    assert set(activities["copy_kind"].tolist()) <= set(CopyKind)
    assert (activities["copy_kind"][kind != ActivityKind.MEMCPY] == 0).all()
    for memory in ("src_memory", "dst_memory"):
        assert set(activities[memory].tolist()) <= set(HostMemory)
    assert set(activities["on_device"].tolist()) <= {0, 1}
    assert (kind[activities["on_device"] == 1] == ActivityKind.ANNOTATION).all()
    assert activities.meta["tool"] == "PyTorch profiler" and activities.meta["source"] == SOURCE


@fuzz_settings(500)
@given(name=st.sampled_from(NAMES), mutations=st.lists(_MUTATION, min_size=1, max_size=3))
def test_a_mutated_trace_reads_sanely_or_is_refused_in_one_line(name, mutations):
    raw = mutated(name, mutations)
    try:
        activities = read_kineto(raw, SOURCE)
    except KinetoFormatError as error:
        message = str(error)
        assert "\n" not in message and len(message) < 600, message[:600]
        assert message.startswith(f"{SOURCE}: ")
        return
    assert_sane(activities)


def test_the_mutations_reach_the_rows():
    # a check on the fuzzer itself: mutations aimed at the rows' times land on rows' times
    messages = set()
    for step in range(40):
        try:
            read_kineto(mutated("torch-pinned.json.gz", [("set", "times", step / 40, -3)]), SOURCE)
        except KinetoFormatError as error:
            messages.add(str(error).split("): ", 1)[-1])
    assert {"its ts is negative", "its dur is negative"} <= messages
    untouched = read_kineto(mutated("torch-pinned.json.gz", [("set", "top", 0.0, None)]), SOURCE)
    assert len(untouched) == 450
