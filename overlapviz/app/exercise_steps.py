"""Step through: the run on show played back one finding at a time.

Each stop is one finding of the run: the replay's cursor stands where the finding's last span
ends (so everything it points at has been drawn, and what came later has not), its spans are
outlined and its sentence is read. The stops are in the order the run reaches them; a finding
that points at no span stops at the run's end. Next and Previous move between the stops; the
view (`_qt.exercises.step_through`) shows the stop and takes the keys.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from overlapviz.app.events import Event
from overlapviz.core.findings import Finding
from overlapviz.core.i18n import _
from overlapviz.view.prepared import PreparedView

NS_PER_MS = 1e6


@dataclass(frozen=True)
class Stop:
    """One finding on show: its place among the stops, the cursor's time, its spans and its words."""

    index: int
    count: int
    cursor_ms: float
    rows: npt.NDArray[np.int64]
    code: str
    text: str

    @property
    def heading(self) -> str:
        """``Finding 2 of 5``."""
        return _("Finding {number} of {count}").format(number=self.index + 1, count=self.count)


def stops_of(view: PreparedView) -> list[Stop]:
    """The findings of `view` as stops, in the order the run reaches them."""
    trace, end_ms = view.trace, view.end_ms
    timed = []
    for order, finding in enumerate(view.findings):
        timed.append((_reached_ms(finding, trace["end_ns"], end_ms), order, finding))
    timed.sort(key=lambda item: (item[0], item[1]))
    count = len(timed)
    return [Stop(i, count, at, f.rows, f.code, f.message) for i, (at, _order, f) in enumerate(timed)]


def _reached_ms(finding: Finding, end_ns: npt.NDArray[np.int64], run_end_ms: float) -> float:
    rows = finding.rows
    if not len(rows):
        return run_end_ms
    return float(end_ns[rows].max()) / NS_PER_MS


class StepThrough:
    """The stops of one run and the one on show; `moved` gives the stop on show (None: the steps ended)."""

    def __init__(self) -> None:
        self.moved: Event[Stop | None] = Event()
        self._stops: list[Stop] = []
        self._index: int | None = None

    @property
    def active(self) -> bool:
        """Whether a stop is on show."""
        return self._index is not None

    @property
    def stop(self) -> Stop | None:
        """The stop on show, if any."""
        return None if self._index is None else self._stops[self._index]

    def start(self, view: PreparedView) -> bool:
        """Stop at the first finding of `view`; False (and nothing on show) when it has none."""
        self._stops = stops_of(view)
        if not self._stops:
            self.leave()
            return False
        self._go(0)
        return True

    def next(self) -> bool:
        """The next stop; False at the last one (it stays on show)."""
        return self._step(1)

    def previous(self) -> bool:
        """The stop before; False at the first one (it stays on show)."""
        return self._step(-1)

    def leave(self) -> None:
        """End the steps: everything on show again, nothing outlined."""
        was_active = self.active
        self._index = None
        if was_active:
            self.moved.emit(None)

    def _step(self, by: int) -> bool:
        if self._index is None or not 0 <= self._index + by < len(self._stops):
            return False
        self._go(self._index + by)
        return True

    def _go(self, index: int) -> None:
        self._index = index
        self.moved.emit(self._stops[index])
