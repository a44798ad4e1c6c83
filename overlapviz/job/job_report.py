"""What ``overlapviz analyze DIR`` prints: a table of the ranks, the job's lines, its findings; or one JSON object."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from overlapviz.core.analysis.metrics import ns_to_ms
from overlapviz.core.i18n import N_, _, grouped, ngettext, pgettext
from overlapviz.core.i18n.text_width import display_width, rjust
from overlapviz.core.number_text import duration_text
from overlapviz.job.clocks import aligned_on, aligned_on_words, job_uncertainty_ns
from overlapviz.job.job_findings import JobFinding
from overlapviz.job.reduce import JobSummary
from overlapviz.job.summary import RankFigures, RankSummary
from overlapviz.run_report import finite_json, labelled, percent_text

# The table's columns, title and figure (the rank overview's tooltips name them so too); the
# titles are marked for translation and said in the active language where the table is written.
FIGURE_COLUMNS = (
    (N_("makespan"), "makespan_ns"), (N_("copy hidden"), "copy_hidden_pct"), (N_("comm hidden"), "comm_hidden_pct"),
    (N_("engines together"), "engines_together_pct"), (N_("efficiency"), "efficiency_pct"),
    (N_("host blocked"), "host_blocked_ns"), (N_("exposed comm"), "exposed_comm_ns"),
)  # fmt: skip
# The job's findings that single out one rank, which every other rank waits for: its row is marked
# as a worst figure's is. Findings of many ranks (pageable copies, overlap outliers) mark none.
MARKING_FINDINGS = ("straggler",)


@dataclass(frozen=True, slots=True)
class RankMarks:
    """Why a rank's row is marked (the table's ``*``, the overview's star): the one rule for both."""

    worst_at: tuple[str, ...]  # the titles of the figures at which it is the worst of the job
    findings: tuple[JobFinding, ...]  # the job's findings that single it out (`MARKING_FINDINGS`)

    @property
    def titles(self) -> tuple[str, ...]:
        """What the table's last column names: the figures, then the findings' codes."""
        return (*self.worst_at, *(finding.code for finding in self.findings))

    def __bool__(self) -> bool:
        return bool(self.titles)


def rank_marks(job: JobSummary, rank: int | None) -> RankMarks:
    """Why `rank`'s row is marked, if it is: the figures it is worst at, the findings that name it alone."""
    worst = job.marks(rank)
    singled_out = (f for f in job.findings if f.code in MARKING_FINDINGS and rank is not None and rank in f.ranks)
    return RankMarks(tuple(title for title, figure in FIGURE_COLUMNS if figure in worst), tuple(singled_out))


def job_json(job: JobSummary) -> dict[str, Any]:
    """``{"ranks": [{"rank", "file", <the figures of analyze --json FILE>}, ...], "job": {...}}``."""
    ranks = [{"rank": r.rank, "file": r.file, **{k: v for k, v in r.report.items() if k != "trace"}} for r in job.ranks]
    uncertainty = job_uncertainty_ns(job.clocks)
    clocks = {
        "aligned_on": aligned_on(job.clocks),
        "uncertainty_ms": None if uncertainty is None else ns_to_ms(uncertainty),
        "per_rank": [{"rank": r.rank, "offset_ms": ns_to_ms(c.offset_ns), "aligned_on": c.aligned_on,
                      "matched_collectives": c.matched,
                      "uncertainty_ms": None if c.uncertainty_ns is None else ns_to_ms(c.uncertainty_ns)}
                     for r, c in zip(job.ranks, job.clocks, strict=True)],
    }  # fmt: skip
    summary = {
        "ranks": len(job.ranks), "world_size": job.world_size, "makespan_ms": ns_to_ms(job.makespan_ns),
        "worst": {figure.removesuffix("_ns").removesuffix("_pct"): rank for figure, rank in job.worst.items()},
        "clocks": clocks, "findings": [finding.to_dict() for finding in job.findings],
    }  # fmt: skip
    report: dict[str, Any] = finite_json({"ranks": ranks, "job": summary})
    return report


def job_lines(job: JobSummary) -> list[str]:
    """The table, one row per rank (the worst and the straggler marked ``*``), then the job's lines and findings."""
    rows = [[_("rank"), *(_(title) for title, _figure in FIGURE_COLUMNS), _("worst at")]]
    rows += [_row(rank, rank_marks(job, rank.rank)) for rank in job.ranks]
    widths = [max(display_width(row[i]) for row in rows) for i in range(len(rows[0]))]
    table = [_table_line(row, widths) for row in rows]
    findings = [f"  - {finding.message}" for finding in job.findings]
    return [*table, "", *_job_head(job), _("findings") if findings else labelled(_("findings"), _("none")), *findings]


def _table_line(row: list[str], widths: list[int]) -> str:
    """The cells right-aligned in their columns, the last (why the rank is marked) as it is."""
    cells = [rjust(cell, width) for cell, width in zip(row[:-1], widths, strict=False)]
    return "  ".join([*cells, row[-1]]).rstrip()


def _row(rank: RankSummary, marks: RankMarks) -> list[str]:
    cells = [figure_text(rank.figures, figure) for _title, figure in FIGURE_COLUMNS]
    why = [_(title) for title in marks.worst_at] + [finding.code for finding in marks.findings]
    return [f"{'*' if marks else ' '}{rank.rank}", *cells, pgettext("list", ", ").join(why)]


def figure_text(figures: RankFigures, figure: str) -> str:
    """One figure of a rank as the table writes it: ``1222.8 ms``, ``65 %``."""
    value = getattr(figures, figure)
    return duration_text(value) if figure.endswith("_ns") else percent_text(value)


def _job_head(job: JobSummary) -> list[str]:
    world = job.world_size
    of = "" if world is None else _(" of {world}").format(world=grouped(world))
    if world is not None and world > len(job.ranks):
        of += _(" ({count} not given)").format(count=grouped(world - len(job.ranks)))
    uncertainty = job_uncertainty_ns(job.clocks)
    within = (
        _("to within an unknown margin (the hosts' clocks)")
        if uncertainty is None
        else _("to within {margin}").format(margin=duration_text(uncertainty))
    )
    matched = max((clock.matched for clock in job.clocks), default=0)
    ranks = ngettext("{count} rank{of}   makespan {makespan} (clocks aligned)",
                     "{count} ranks{of}   makespan {makespan} (clocks aligned)", len(job.ranks))  # fmt: skip
    clocks = _("aligned on {what} ({count} matched), {within}") if matched else _("aligned on {what}, {within}")
    return [
        labelled(_("job"), ranks, count=grouped(len(job.ranks)), of=of, makespan=duration_text(job.makespan_ns)),
        labelled(_("clocks"), clocks, what=aligned_on_words(aligned_on(job.clocks)), count=grouped(matched),
                 within=within),
    ]
