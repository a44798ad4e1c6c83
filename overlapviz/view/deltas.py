"""The differences between two runs, A and B, in words: what changed and by how much."""

from __future__ import annotations

import html
from dataclasses import dataclass

from overlapviz.core.analysis.metrics import Metrics
from overlapviz.core.i18n import N_, _, ncount
from overlapviz.core.number_text import fixed
from overlapviz.view.formatting import (
    NO_COMMUNICATION,
    NO_COPIES,
    format_bandwidth,
    format_duration,
    format_percent,
    format_time_saved,
)
from overlapviz.view.unit_text import elide_middle, unbreakable

MINUS = "\u2212"
SAME = N_("same")
DASH = "\u2014"  # a figure one side lacks, and its change
CHANGE_TITLE = N_("B vs A")
NAME_LIMIT = 40  # characters of a side's name in the window's table: a long file name would widen every row


@dataclass(frozen=True, slots=True)
class DeltaRow:
    """One metric for A and B, and how B differs from A."""

    name: str
    a: str
    b: str
    change: str


def delta_rows(a: Metrics, b: Metrics) -> list[DeltaRow]:
    """The headline figures of A and B, with B's change from A.

    Makespan, copy time hidden, communication hidden (where either run communicates), engines
    busy together, efficiency (shares change by points), time saved, wall (where allocating host
    memory shows), host blocked and bandwidth.
    """
    communicates = a.comm_hidden_pct is not None or b.comm_hidden_pct is not None
    return [
        DeltaRow(_("Makespan"), format_duration(a.makespan_ns), format_duration(b.makespan_ns),
                 _time_change(a.makespan_ns, b.makespan_ns)),
        _share_row(_("Copy time hidden"), a.copy_hidden_pct, b.copy_hidden_pct, NO_COPIES),
        *([_share_row(_("Communication hidden"), a.comm_hidden_pct, b.comm_hidden_pct, NO_COMMUNICATION)]
          if communicates else []),
        _share_row(_("Engines busy together"), a.engines_together_pct, b.engines_together_pct),
        _share_row(_("Efficiency"), a.efficiency_pct, b.efficiency_pct),
        DeltaRow(_("Time saved"), _saved(a), _saved(b), _signed_duration(b.time_saved_ns - a.time_saved_ns)),
        DeltaRow(_("Wall"), format_duration(a.wall_ns), format_duration(b.wall_ns), _time_change(a.wall_ns, b.wall_ns)),
        DeltaRow(_("Host blocked"), _blocked(a), _blocked(b), _signed_duration(b.host_blocked_ns - a.host_blocked_ns)),
        *(_bandwidth_row(_(title), a.bandwidth_gbps.get(key), b.bandwidth_gbps.get(key))
          for key, title in (("h2d", N_("H2D bandwidth")), ("d2h", N_("D2H bandwidth")))),
    ]  # fmt: skip


def delta_line(rows: list[DeltaRow]) -> str:
    """The rows as one line: ``Makespan 67.4 ms → 5.93 ms (−61.4 ms, 11.4× faster) · ...``."""
    return "  \u00b7  ".join(
        _("{figure} {a} \u2192 {b} ({change})").format(figure=row.name, a=row.a, b=row.b, change=row.change)
        for row in rows
    )


def delta_html(rows: list[DeltaRow], labels: tuple[str, str] = ("A", "B"), name_limit: int | None = None) -> str:
    """The rows as a small table: a column per metric; rows A, B and the change.

    The headers and the row titles stay on one line; with a `name_limit` a longer side name
    is cut in its middle (for the window, whose `delta_names_tooltip` gives it whole). The
    values break only after a comma or colon.
    """
    cell = "<td style='padding: 1px 12px 1px 0'>{}</td>"
    title_cell = "<td style='padding: 1px 12px 1px 0; white-space: nowrap'><b>{}</b></td>"
    head = "<tr><td></td>" + "".join(title_cell.format(html.escape(r.name)) for r in rows) + "</tr>"
    lines = [head]
    for title, values in ((labels[0], [r.a for r in rows]), (labels[1], [r.b for r in rows]),
                          (_(CHANGE_TITLE), [r.change for r in rows])):  # fmt: skip
        body = "".join(cell.format(_keep_together(value)) for value in values)
        name = title if name_limit is None else elide_middle(title, name_limit)
        lines.append(f"<tr>{title_cell.format(html.escape(name))}{body}</tr>")
    return "<table cellspacing='0'>" + "".join(lines) + "</table>"


def delta_names_tooltip(labels: tuple[str, str]) -> str:
    """The sides' names whole, one a line, where the table cut either; else nothing."""
    if all(len(label) <= NAME_LIMIT for label in labels):
        return ""
    return "\n".join(labels)


def _keep_together(value: str) -> str:
    """`value` as HTML that a narrow table breaks only after a comma or colon, never inside ``61.6 GB/s``."""
    words = html.escape(unbreakable(value)).replace(" ", "&nbsp;")
    return words.replace(",&nbsp;", ", ").replace(":&nbsp;", ": ")


def _time_change(a_ns: int, b_ns: int) -> str:
    if a_ns == b_ns or a_ns <= 0 or b_ns <= 0:
        return _(SAME) if a_ns == b_ns else _signed_duration(b_ns - a_ns)
    ratio = a_ns / b_ns if b_ns < a_ns else b_ns / a_ns
    said = _("{change}, {ratio}\u00d7 faster") if b_ns < a_ns else _("{change}, {ratio}\u00d7 slower")
    return said.format(change=_signed_duration(b_ns - a_ns), ratio=fixed(ratio, 1 if ratio < 100 else 0))


def _signed_duration(diff_ns: int) -> str:
    if diff_ns == 0:
        return _(SAME)
    sign = "+" if diff_ns > 0 else MINUS
    return f"{sign}{format_duration(abs(diff_ns))}"


def _points_change(a: float | None, b: float | None) -> str:
    if a is None or b is None:
        return DASH
    diff = round(b) - round(a)  # the change between the shares as shown
    if diff == 0:
        return _(SAME)
    # Translators: a change between two shares in percentage points, as in "+12 points"
    points = ncount("{count} point", "{count} points", abs(diff))
    return f"{'+' if diff > 0 else MINUS}{points}"


def _share_row(title: str, a: float | None, b: float | None, missing: str = DASH) -> DeltaRow:
    return DeltaRow(title, format_percent(a, missing), format_percent(b, missing), _points_change(a, b))


def _saved(metrics: Metrics) -> str:
    return format_time_saved(metrics.time_saved_ns, metrics.speedup, short=True)


def _blocked(metrics: Metrics) -> str:
    return format_duration(metrics.host_blocked_ns) if metrics.host_blocked_ns else _("none")


def _bandwidth_row(title: str, a: float | None, b: float | None) -> DeltaRow:
    if a is None or b is None or a <= 0:
        change = DASH
    elif abs(b - a) < 0.05:
        change = _(SAME)
    else:
        change = f"{'+' if b > a else MINUS}{format_bandwidth(abs(b - a))}, \u00d7{b / a:.2g}"
    return DeltaRow(title, format_bandwidth(a), format_bandwidth(b), change)
