"""Mutated real trace files: each loads whole and analyses cleanly, or is refused in one line."""

import copy
import json

import numpy as np
import pytest
from fuzzing import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.files.safe_read import InputFileError
from overlapviz.core.files.trace_format import TraceFormatError
from overlapviz.core.files.trace_import import import_chrome, trace_at_once, trace_from_chrome
from overlapviz.core.findings import find_findings
from overlapviz.core.trace.columns import COLUMNS
from overlapviz.core.trace.lanes import lane_rows, lanes_of
from overlapviz.resources import asset_path

pytestmark = pytest.mark.fuzz

SOURCES = sorted(asset_path("traces").glob("*.json"))
_DOCUMENTS = {path.name: json.loads(path.read_text()) for path in SOURCES}

# What a mutation puts in place of a value: the kinds of value that broke loading or analysis.
_HUGE_TEXT = "x" * 2_000_000
_REPLACEMENTS = st.one_of(
    st.sampled_from([None, True, -1, 0, 2**31, 2**63, -(2**63) - 1, 10**30, 1.5, float("inf"), "", "abc",
                     _HUGE_TEXT, [], {}, {"a": 1}, [1, 2]]),
    st.integers(),
    st.text(max_size=8),
)


def _paths(document):
    """Every (path, value) inside a JSON document (without recursion: mutations nest deep)."""
    pending = [((), document)]
    while pending:
        prefix, value = pending.pop()
        yield prefix, value
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        pending.extend(((*prefix, key), item) for key, item in items)


def _set(document, path, value):
    target = document
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value


def _nested(depth):
    value = {}
    for _ in range(depth):
        value = {"a": value}
    return value


# One mutation: which part of the file to aim at, where in it (a fraction of its values), and
# what to put there. Kept small so that a failing example prints as a few numbers, not a file.
_MUTATION = st.tuples(
    st.sampled_from(["anywhere", "meta", "args"]),
    st.floats(0, 1, exclude_max=True),
    st.one_of(_REPLACEMENTS, st.sampled_from([20, 2000]).map(lambda depth: ("nested", depth))),
)


def mutated(name, mutations):
    """A copy of a real trace document with `mutations` applied, in order."""
    document = copy.deepcopy(_DOCUMENTS[name])
    for part, where, value in mutations:
        paths = [path for path, _ in _paths(document) if path]
        # the metadata and the rows' args are where most of the trouble was
        aimed = {
            "meta": [p for p in paths if p[:2] == ("otherData", "meta")],
            "args": [p for p in paths if len(p) > 3 and p[2] == "args"],
        }.get(part) or paths
        # a fresh copy each time: the same list placed twice could end up inside itself
        value = _nested(value[1]) if isinstance(value, tuple) else copy.deepcopy(value)
        _set(document, aimed[int(where * len(aimed))], value)
    return document


@fuzz_settings(500)
@given(name=st.sampled_from(sorted(_DOCUMENTS)), mutations=st.lists(_MUTATION, min_size=1, max_size=3))
def test_a_mutated_trace_loads_whole_or_is_refused_in_one_line(name, mutations, tmp_path_factory):
    document = mutated(name, mutations)
    path = tmp_path_factory.mktemp("fuzz") / "trace.json"
    try:
        path.write_text(json.dumps(document))
    except (ValueError, RecursionError):
        return  # not JSON at all (infinity, too deep for the writer): nothing to read back
    raw = path.read_bytes()
    fast = trace_at_once(raw)
    if fast is not None:  # the fast reading accepts only what the event-by-event one does, and reads it alike
        slow = trace_from_chrome(json.loads(raw))
        assert all(np.array_equal(fast[column], slow[column]) for column in COLUMNS)
        assert (fast.names, fast.meta) == (slow.names, slow.meta)
    try:
        trace = import_chrome(path)
    except (TraceFormatError, InputFileError) as error:
        message = str(error)
        assert "\n" not in message and len(message) < 600, message[:600]
        return
    metrics = compute_metrics(trace)
    for share in (metrics.copy_hidden_pct, metrics.engines_together_pct, metrics.efficiency_pct):
        assert share is None or 0 <= share <= 100
    find_findings(trace, metrics)
    for lane in lanes_of(trace):
        lane_rows(trace, lane)
