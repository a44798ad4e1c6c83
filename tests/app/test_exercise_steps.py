"""Step through without Qt: the findings of a run in the order the run reaches them, Next and Previous, leaving."""

from __future__ import annotations

import numpy as np
import pytest

from overlapviz.app.exercise_highlight import highlight_rows
from overlapviz.app.exercise_steps import StepThrough, stops_of
from overlapviz.core.config import PipelineConfig
from overlapviz.core.trace.spans import OpKind
from overlapviz.presets import get_preset
from overlapviz.session import run_pipeline
from overlapviz.view.prepared import prepare_view


@pytest.fixture(scope="module")
def fermi_view():
    """Breadth-first issue on the Tesla C2050 model: two copy queues and a false dependency."""
    preset = get_preset("order-c2050")
    return prepare_view(run_pipeline(preset.configs[1], "sim", "tesla-c2050"))


def test_the_stops_follow_the_run_each_at_its_last_span(fermi_view):
    stops = stops_of(fermi_view)
    assert len(stops) == len(fermi_view.findings) == 3
    assert [stop.cursor_ms for stop in stops] == sorted(stop.cursor_ms for stop in stops)
    end_ns = fermi_view.trace["end_ns"]
    for stop in stops:
        assert stop.cursor_ms == end_ns[stop.rows].max() / 1e6
        assert stop.heading == f"Finding {stop.index + 1} of 3"
    assert {(s.code, s.text) for s in stops} == {(f.code, f.message) for f in fermi_view.findings}


def test_next_and_previous_stop_at_the_ends_and_leave_says_so(fermi_view):
    steps = StepThrough()
    heard = []
    steps.moved.connect(heard.append)
    assert steps.start(fermi_view) and steps.stop.index == 0
    assert not steps.previous()
    assert steps.next() and steps.next() and not steps.next()
    assert steps.stop.index == 2
    steps.leave()
    assert not steps.active and heard[-1] is None
    assert [stop.index for stop in heard[:-1]] == [0, 1, 2]


def test_a_run_without_findings_has_nothing_to_step_through():
    view = prepare_view(run_pipeline(PipelineConfig(size_bytes=32 * 2**20), "sim", "h200"))
    assert not view.findings
    steps = StepThrough()
    assert not steps.start(view) and steps.stop is None


def test_the_explanations_spans_by_kind_finding_and_name(fermi_view):
    trace, findings = fermi_view.trace, fermi_view.findings
    assert highlight_rows(["kernel"], trace, findings).tolist() == np.flatnonzero(trace.mask(OpKind.KERNEL)).tolist()
    false_dependency = next(f for f in findings if f.code == "false-dependency")
    assert highlight_rows(["finding:false-dependency"], trace, findings).tolist() == sorted(false_dependency.rows)
    name = trace.name_of(0)
    named = highlight_rows([f"span:{name}"], trace, findings)
    assert len(named) and all(trace.name_of(row) == name for row in named)
    assert not len(highlight_rows(["finding:no-such-code", "no-such-kind"], trace, findings))
