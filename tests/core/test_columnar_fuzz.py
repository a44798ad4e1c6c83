"""Mutated columnar files: each loads whole and analyses cleanly, or is refused in one line naming the file."""

import io
import zipfile

import numpy as np
import pytest
from fuzzing import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.files.columnar_write import columnar_bytes
from overlapviz.core.files.safe_read import InputFileError
from overlapviz.core.files.session_document import SessionData
from overlapviz.core.files.trace_format import TraceFormatError
from overlapviz.core.files.trace_import import import_chrome
from overlapviz.core.findings import find_findings
from overlapviz.core.trace.columns import COLUMNS
from overlapviz.core.trace.lanes import lane_rows, lanes_of
from overlapviz.importers.read import read_trace_file, read_with_settings
from overlapviz.resources import asset_path

pytestmark = pytest.mark.fuzz

_TRACE = import_chrome(asset_path("traces") / "h200-breadth.json")
_RAW = columnar_bytes(SessionData(None, _TRACE), session=True)

# One change to the file's bytes: where (a fraction of the file) and what.
_BYTE_CHANGE = st.tuples(
    st.floats(0, 1, exclude_max=True),
    st.one_of(
        st.tuples(st.just("set"), st.integers(0, 255)),
        st.tuples(st.just("cut"), st.integers(1, 64)),
        st.tuples(st.just("insert"), st.binary(min_size=1, max_size=16)),
        st.just(("end",)),
    ),
)
# One change to a column's values: which column, which row (a fraction), which value.
_VALUE_CHANGE = st.tuples(
    st.sampled_from(sorted(COLUMNS)),
    st.floats(0, 1, exclude_max=True),
    st.sampled_from([-(2**63), -(2**31), -2, -1, 0, 1, 7, 12, 255, 2**31 - 1, 2**62]),
)


def _changed_bytes(raw, changes):
    data = bytearray(raw)
    for where, change in changes:
        at = int(where * len(data))
        if change[0] == "set" and data:
            data[at] = change[1]
        elif change[0] == "cut":
            del data[at : at + change[1]]
        elif change[0] == "insert":
            data[at:at] = change[1]
        elif change[0] == "end":
            del data[at:]
    return bytes(data)


def _changed_values(changes):
    columns = {name: _TRACE[name].copy() for name in COLUMNS}
    for column, where, value in changes:
        array = columns[column]
        info = np.iinfo(array.dtype)
        array[int(where * len(array))] = min(max(value, info.min), info.max)
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(_RAW)) as source, zipfile.ZipFile(buffer, "w") as target:
        for info in source.infolist():
            name = info.filename.removesuffix(".npy")
            if name in columns:
                member = io.BytesIO()
                np.save(member, columns[name])
                target.writestr(info, member.getvalue())
            else:
                target.writestr(info, source.read(info))
    return buffer.getvalue()


def _loads_whole_or_is_refused_in_one_line(raw, folder):
    path = folder / "trace.ovz"
    path.write_bytes(raw)
    try:
        trace = read_trace_file(path)
        read_with_settings(path)
    except (TraceFormatError, InputFileError) as error:
        message = str(error)
        assert str(path) in message and "\n" not in message and len(message) < 600, message[:600]
        return
    metrics = compute_metrics(trace)
    for share in (metrics.copy_hidden_pct, metrics.engines_together_pct, metrics.efficiency_pct):
        assert share is None or 0 <= share <= 100
    find_findings(trace, metrics)
    for lane in lanes_of(trace):
        lane_rows(trace, lane)


@fuzz_settings(300)
@given(changes=st.lists(_BYTE_CHANGE, min_size=1, max_size=3))
def test_a_file_with_changed_bytes_loads_whole_or_is_refused_in_one_line(changes, tmp_path_factory):
    _loads_whole_or_is_refused_in_one_line(_changed_bytes(_RAW, changes), tmp_path_factory.mktemp("fuzz"))


@fuzz_settings(300)
@given(changes=st.lists(_VALUE_CHANGE, min_size=1, max_size=3))
def test_a_file_with_changed_values_loads_whole_or_is_refused_in_one_line(changes, tmp_path_factory):
    _loads_whole_or_is_refused_in_one_line(_changed_values(changes), tmp_path_factory.mktemp("fuzz"))
