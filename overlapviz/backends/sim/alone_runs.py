"""Runs of ops that each finish alone: the host-bound stretch of a run, taken in one numpy step.

When the host is the bottleneck (small chunks: every call costs more host time than its op
takes on the GPU) each op is issued to an idle GPU, starts when its call returns, ends, and
signals the next op of its stream, all before the host's next call returns. Then nothing
else happens meanwhile, and the event loop's steps for such an op reduce to sums that
numpy does for a whole run of ops at once: the same additions in the same order, so the
same times to the last bit. The loop takes a run wherever it has no event pending; the
first op that would not finish alone (or that needs something a run does not model: a
blocking copy, a host copy, an event between streams, calls of two GPUs, a Fermi batch of
several kernels) ends the run, and the loop takes it from there.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from overlapviz.backends.sim.model_state import ModelState
from overlapviz.backends.sim.timeline_columns import float_column

_FIRST_WINDOW = 64  # ops tried at once after a run was cut short
_LEAST_RUN = 16  # a shorter run costs more in numpy than the loop's steps for its ops
_MOST_WINDOW = 2048  # ops tried at once at most: at most this much numpy work is wasted on a cut
_FIRST_PAUSE = 4  # issue steps the loop takes alone after a try found no op to take
_MOST_PAUSE = 4096


class AloneRuns(ModelState):
    """The model's state, plus taking runs of ops that each finish alone (see the module's docstring)."""

    def _set_up_alone_runs(self) -> None:
        """Each op's numbers the runs need, as arrays, and which ops a run may take at all."""
        successor, unit = self._successor_column, self._unit_column
        has_next = successor >= 0
        next_unit = np.where(has_next, unit[np.maximum(successor, 0)], -1)
        # the successor hears of the end at once on the same engine, `signal_ns` later elsewhere
        self._alone_delay = np.where(has_next & (next_unit != unit), self._signal_ns, 0.0)
        self._alone_predecessor = np.full(len(successor), -1, dtype=np.int64)
        self._alone_predecessor[successor[has_next]] = np.flatnonzero(has_next)
        self._alone_may = self._ops_a_run_may_take()
        self._alone_taken = np.zeros(len(successor), dtype=bool)
        self._alone_times = np.zeros((4, len(successor)))  # enqueue, ready, start, end of the ops runs took
        self._alone_window = _FIRST_WINDOW
        self._alone_pause = _FIRST_PAUSE
        self._alone_next_try = 0

    def _ops_a_run_may_take(self) -> npt.NDArray[np.bool_]:
        columns = self._columns
        may = ~(self._on_host_column | self._blocks_host_column)
        may &= columns.after < 0
        waited = np.fromiter(self._dependents, dtype=np.int64, count=len(self._dependents))
        may[waited] = False
        if self._calls_before:
            may &= np.fromiter(map(len, self._calls_before), dtype=np.int64, count=len(may)) == 0
            may &= np.fromiter(map(len, self._calls_after), dtype=np.int64, count=len(may)) == 0
        if len(self._batch_left):  # a Fermi batch of one kernel signals at its end, like no batch
            batch = np.asarray(self._kernel_batch, dtype=np.int64)
            sizes = np.asarray(self._batch_left, dtype=np.int64)
            may &= (batch < 0) | (sizes[np.maximum(batch, 0)] == 1)
        alone: npt.NDArray[np.bool_] = may & (columns.work_ns >= 0)
        return alone

    def _try_alone_run(self) -> int:
        """Take the run of ops from the host's next that finish alone; how many (0: none now)."""
        first = self._host_next
        tried = first >= self._alone_next_try and self._engines_idle()
        taken = self._take_alone_run(first, min(len(self.ops), first + self._alone_window)) if tried else 0
        if taken:
            self._alone_pause = _FIRST_PAUSE
            grown = 2 * self._alone_window if taken == self._alone_window else 2 * taken
            self._alone_window = max(_FIRST_WINDOW, min(_MOST_WINDOW, grown))
            return taken
        if tried:
            self._alone_next_try = first + self._alone_pause
            self._alone_pause = min(_MOST_PAUSE, 2 * self._alone_pause)
            self._alone_window = _FIRST_WINDOW
        self._make_loop_lists()  # the loop takes the next step itself
        return 0

    def _engines_idle(self) -> bool:
        return not any(engine.running or engine.pending for engine in self._engines)

    def _take_alone_run(self, first: int, stop: int) -> int:
        """Take ops `first`.. (before `stop`) while each finishes alone; how many were taken."""
        n = stop - first
        steps = np.empty(2 * n, dtype=np.float64)
        steps[0] = self._host_time
        steps[1::2] = self._call_ns_column[first:stop]
        steps[2::2] = self._gap_ns
        times = np.add.accumulate(steps)  # one addition after another, as the loop adds them
        begin, returns = times[0::2], times[1::2]
        end = returns + self._columns.work_ns[first:stop]
        heard = end + self._alone_delay[first:stop]
        next_step = np.empty(n, dtype=np.float64)
        next_step[:-1] = begin[1:] + self._lead_ns_column[first + 1 : stop]
        next_step[-1] = returns[-1] + self._gap_ns + self._lead_ns_column[stop] if stop < len(self.ops) else np.inf
        alone = self._alone_may[first:stop] & (heard < next_step)
        before = self._alone_predecessor[first:stop] < first  # its stream's op before it ended before the run
        alone[before] &= np.asarray(self.signalled[first:stop], dtype=bool)[before]
        taken = n if alone.all() else int(np.argmin(alone))
        if taken < min(n, _LEAST_RUN):
            return 0
        self._record_alone_run(first, taken, begin[:taken], returns[:taken], end[:taken])
        return taken

    def _record_alone_run(
        self, first: int, taken: int, begin: npt.NDArray[np.float64], returns: npt.NDArray[np.float64],
        end: npt.NDArray[np.float64],
    ) -> None:  # fmt: skip
        """What the loop's steps for ops `first`.. would have written, written at once."""
        last = first + taken
        self._alone_taken[first:last] = True
        self._alone_times[:, first:last] = begin, returns, returns, end
        self.end[first:last] = end.tolist()  # the loop reads when ops ended (the ring's waits, the synchronize)
        self.submitted[first:last] = [True] * taken
        self._record_alone_calls(first, last, begin, returns)
        self._host_next = last
        self._host_time = float(returns[-1]) + self._gap_ns
        self._signal_alone_successors(first, last, end)
        self._leave_engines_as_run(first, last)

    def _record_alone_calls(
        self, first: int, last: int, begin: npt.NDArray[np.float64], returns: npt.NDArray[np.float64]
    ) -> None:
        if self._graph:  # one call for every op: begun by the first, recorded with the last
            self._make_loop_lists()  # the call is recorded with its op's GPU, from the lists
            for i in dict.fromkeys((first, last - 1)):
                self._graph_call(i, float(begin[i - first]), float(returns[i - first]))
            return
        ops = np.arange(first, last)
        self._add_calls((self._call_name_column[first:last], begin, returns, ops, self._columns.device[first:last]))

    def _op_times(self, row: int, values: list[float]) -> npt.NDArray[np.float64]:
        """One of the times of every op (`row` of `_alone_times`), from the runs or from the loop's `values`."""
        taken = self._alone_taken
        by_loop = np.flatnonzero(~taken)
        if len(by_loop) * 8 > len(taken):  # most: convert them all, then put the runs' in
            times = float_column(values)
            times[taken] = self._alone_times[row, taken]
            return times
        gathered: npt.NDArray[np.float64] = self._alone_times[row].copy()
        gathered[by_loop] = np.fromiter(map(values.__getitem__, by_loop.tolist()), dtype=np.float64, count=len(by_loop))
        return gathered

    def _signal_alone_successors(self, first: int, last: int, end: npt.NDArray[np.float64]) -> None:
        """Each op's next in its stream hears of its end, where that op is still to be issued.

        The run's own ops are done: what they wait for is read no more, so only the few ops
        after the run (one per stream at most) are told.
        """
        successor = self._successor_column[first:last]
        later = successor >= last
        reached = (end[later] + self._signal_ns).tolist()
        signals_left, signalled, stream_reached = self._signals_left, self.signalled, self._stream_reached
        for j, at in zip(successor[later].tolist(), reached, strict=True):
            stream_reached[j] = at
            signals_left[j] -= 1
            if not signals_left[j]:
                signalled[j] = True

    def _leave_engines_as_run(self, first: int, last: int) -> None:
        """The engines and queues as the run's ops left them: idle, each queue past its ops."""
        units = self._unit_column[first:last]
        queues = self._queue_column[first:last]
        for unit in np.unique(units).tolist():
            on_unit = np.flatnonzero(units == unit)
            engine = self._engines[unit]
            engine.last_queue = int(queues[on_unit[-1]])
            if engine.busy:  # adding and taking back an occupancy need not leave a rounding remainder as it was
                for share in self._occupancy_column[on_unit + first].tolist():
                    engine.busy += share
                    engine.busy -= share
        counts = np.bincount(queues, minlength=len(self._queue_pos)).tolist()
        self._queue_pos = [pos + count for pos, count in zip(self._queue_pos, counts, strict=True)]
