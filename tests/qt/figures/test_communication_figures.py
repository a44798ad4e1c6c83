"""Communication hidden where the figures are shown: the metrics panel, the A/B deltas, the callout."""

from functools import cache
from pathlib import Path

from PySide6.QtWidgets import QLabel

from overlapviz.core.analysis.metrics import METRIC_DEFINITIONS
from overlapviz.core.findings.communication import exposed_comm_ns
from overlapviz.importers.read import read_trace_file
from overlapviz.session import analyse
from overlapviz.view.deltas import delta_rows
from overlapviz.view.formatting import format_duration, format_percent
from overlapviz.view.prepared import prepare_view

DATA = Path(__file__).resolve().parents[2] / "data"
RANK0, RANK1 = (f"torch-real/hta-sampled-rank{rank}-of-128.json.gz" for rank in (0, 1))
PINNED = "torch/torch-pinned.json.gz"


@cache
def result_of(relative):
    return analyse(read_trace_file(DATA / relative))


def _row(panel, part):
    return panel.findChild(QLabel, f"comm_hidden_{part}")


def test_the_panel_shows_communication_hidden_with_its_definition_only_for_a_trace_that_communicates(panel):
    talking = result_of(RANK0)
    panel.show_results(talking.metrics, talking.findings, talking.trace)
    assert _row(panel, "title").isVisible() and _row(panel, "value").isVisible()
    assert panel.value_text("comm_hidden") == format_percent(talking.metrics.comm_hidden_pct)
    assert _row(panel, "value").toolTip() == METRIC_DEFINITIONS["comm_hidden"]
    assert "communication" in panel.value_text("utilisation")
    quiet = result_of(PINNED)
    panel.show_results(quiet.metrics, quiet.findings, quiet.trace)
    assert not _row(panel, "title").isVisible() and not _row(panel, "value").isVisible()


def test_the_deltas_compare_communication_hidden_where_a_side_communicates():
    a, b = result_of(RANK0).metrics, result_of(RANK1).metrics
    rows = {row.name: row for row in delta_rows(a, b)}
    assert list(rows)[:3] == ["Makespan", "Copy time hidden", "Communication hidden"]
    points = round(b.comm_hidden_pct) - round(a.comm_hidden_pct)
    assert rows["Communication hidden"].change == f"+{points} points"
    one_side = {row.name: row for row in delta_rows(result_of(PINNED).metrics, a)}
    assert one_side["Communication hidden"].a == "no communication"
    quiet = result_of(PINNED).metrics
    assert "Communication hidden" not in {row.name for row in delta_rows(quiet, quiet)}


def test_the_exposed_communication_callout_sits_over_the_communication_lane():
    result = result_of(RANK0)
    [callout] = [c for c in prepare_view(result).callouts if c.code == "exposed-communication"]
    assert callout.lane_key == "unit-communication"
    exposed = format_duration(exposed_comm_ns(result.trace))
    assert callout.text.startswith(f"exposed communication: {exposed}, 28% of the run")
