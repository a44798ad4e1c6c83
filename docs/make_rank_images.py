"""Draw the picture of the rank overview for docs/traces.md ("Many ranks").

Run from the repository root (no display needed):

    python docs/make_rank_images.py

Writes docs/images/rank-overview.png: above, the overview of the real job of the tests (two
ranks of a 128-rank job that HolisticTraceAnalysis published, tests/data/ranks/README.md); below,
a synthetic job of 16 ranks made from those two (even ranks from rank 0, odd from rank 1), each
one's work moved 2 ms later than the one before, rank 11's 60 ms later, and rank 5's copies made
pageable, so that the picture shows many rows, a late rank and marked ranks. Look at the picture
before committing it.

The synthetic ranks share rank 0's collectives, ending together on the job's clock (the odd
ranks' at rank 1's real offset), so that the clocks align exactly; rank 11 starts each of them
`LATE_NS` later (at most when it ends, as the others wait in theirs), which makes it the
straggler. Every rank's copies are pinned but rank 5's, which are all pageable.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget

from overlapviz._qt.app import ensure_app
from overlapviz._qt.ranks.rank_panel import RankOverviewPanel
from overlapviz._qt.themes import THEMES, apply_stylesheet
from overlapviz.job.anchors import CollectiveAnchors
from overlapviz.job.reduce import JobSummary, reduce_job
from overlapviz.job.summary import RankFigures, RankSummary
from overlapviz.job.worker import RankSource, summarise_file
from overlapviz.view.rank_overview import rank_overview

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
REAL = ROOT / "tests" / "data" / "torch-real"
RANK_FILES = (REAL / "hta-sampled-rank0-of-128.json.gz", REAL / "hta-sampled-rank1-of-128.json.gz")
SYNTHETIC_RANKS = 16
STEP_NS = 2_000_000  # each synthetic rank's work this much later than the one before
LATE_RANK, LATE_NS = 11, 60_000_000
PAGEABLE_RANK = 5
SIZE = (1920, 1500)
POINT_SIZE = 17  # text a projector shows at the back of a room


def synthetic_job(real: list[RankSummary]) -> JobSummary:
    """16 ranks made from the two real ones (see the module docstring)."""
    real_offsets = [clock.offset_ns for clock in reduce_job(real).clocks]
    ranks = []
    for number in range(SYNTHETIC_RANKS):
        base = real[number % 2]
        moved = STEP_NS * number + (LATE_NS if number == LATE_RANK else 0)
        buckets = dataclasses.replace(base.buckets, start_ns=base.buckets.start_ns + moved)
        anchors = _collectives(real[0].anchors, -real_offsets[number % 2], LATE_NS if number == LATE_RANK else 0)
        ranks.append(dataclasses.replace(
            base, file=f"rank{number}.json.gz", rank=number, world_size=SYNTHETIC_RANKS,
            figures=_copies(base.figures, pageable=number == PAGEABLE_RANK), anchors=anchors, buckets=buckets,
            device_start_ns=base.device_start_ns + moved, device_end_ns=base.device_end_ns + moved,
        ))  # fmt: skip
    return reduce_job(ranks)


def _collectives(anchors: CollectiveAnchors, shift_ns: int, late_ns: int) -> CollectiveAnchors:
    """`anchors` on a clock `shift_ns` later, each started `late_ns` later but no later than it ends."""
    ends = anchors.end_ns + shift_ns
    starts = np.minimum(anchors.start_ns + shift_ns + late_ns, ends)
    return dataclasses.replace(anchors, start_ns=starts, end_ns=ends)


def _copies(figures: RankFigures, pageable: bool) -> RankFigures:
    """Every copy pinned, or every copy pageable (the host then blocked 40 times as long)."""
    copies = figures.pageable_copies + figures.pinned_copies
    if not pageable:
        return dataclasses.replace(figures, pageable_copies=0, pinned_copies=copies)
    return dataclasses.replace(figures, pageable_copies=copies, pinned_copies=0,
                               host_blocked_ns=figures.host_blocked_ns * 40)  # fmt: skip


def picture(real: JobSummary, synthetic: JobSummary, path: Path) -> None:
    """Both overviews, one above the other, as the window shows them, saved to `path`."""
    page = QWidget()
    layout = QVBoxLayout(page)
    for title, job, name, stretch in (
        ("Real: two ranks of a 128-rank job (HolisticTraceAnalysis' test traces)", real, "ranks", 2),
        ("Synthetic: 16 ranks made from those two, with their times moved", synthetic, "synthetic-16", 5),
    ):
        heading = QLabel(f"<b>{title}</b>")
        panel = RankOverviewPanel()
        panel.show_overview(rank_overview(job), name)
        layout.addWidget(heading)
        layout.addWidget(panel, stretch)
    page.resize(*SIZE)
    page.show()
    settle = QEventLoop()
    QTimer.singleShot(500, settle.quit)  # let pending layout and paints happen, as on a screen
    settle.exec()
    for panel in page.findChildren(RankOverviewPanel):
        panel.set_font(QApplication.font())
    page.grab().save(str(path))
    page.close()
    print(path)


def main() -> None:
    """Summarise the real ranks here, make the synthetic job from them and draw both."""
    app = ensure_app()
    apply_stylesheet(app, THEMES["light"])
    font = QFont(app.font())
    font.setPointSize(POINT_SIZE)
    app.setFont(font)
    real = [summarise_file(RankSource(str(file))) for file in RANK_FILES]
    summaries = [summary for summary in real if isinstance(summary, RankSummary)]
    picture(reduce_job(summaries), synthetic_job(summaries), IMAGES / "rank-overview.png")


if __name__ == "__main__":
    main()
