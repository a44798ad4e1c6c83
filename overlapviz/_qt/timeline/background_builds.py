"""What the timeline would otherwise build on the GUI thread at a zoom or a hover, built on a worker.

A finer level of a layer's spans (`view.span_levels`) or a lane's hover index
(`view.hover_index`) reads every span of the layer or lane: at 10^7 spans that is a tenth of
a second or more, a stutter at each new zoom. The timeline asks for them here (`want`);
with an executor (`app.executor.Executor`, a thread of the timeline's own) they are built
there, all those asked for meanwhile in one job, and `landed` is called on the GUI thread
once they are, so that the timeline draws again from them. Without one, each is built at
once, where asked (an export's timeline, which draws once and must draw the finished picture).
A new picture drops what was asked for the old one (`forget`): its outcome is never reported.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping

from overlapviz.app.executor import Executor, Outcome
from overlapviz.core.cancel import CancelToken

Build = Callable[[], object]


class BackgroundBuilds:
    """Builds asked for by key, one job at a time on `executor`; `landed` after each job, on the GUI thread."""

    def __init__(self, landed: Callable[[], None], executor: Executor | None = None) -> None:
        self._landed = landed
        self._executor = executor
        self._asked: dict[Hashable, Build] = {}  # waiting for the next job
        self._in_flight: dict[Hashable, Build] = {}
        self._failed: set[Hashable] = set()  # not asked again for this picture: drawn from what is built

    @property
    def off_thread(self) -> bool:
        """Whether builds run on a worker (else at once, where asked)."""
        return self._executor is not None

    def use(self, executor: Executor | None) -> None:
        """Build on `executor` from now on (None: at once, where asked); what was asked before is dropped."""
        self.forget()
        self._executor = executor

    def want(self, builds: Mapping[Hashable, Build]) -> None:
        """Have each of `builds` run (once per key while asked or in flight): on the worker, or now without one."""
        if self._executor is None:
            for build in builds.values():
                build()
            return
        for key, build in builds.items():
            if key not in self._asked and key not in self._in_flight and key not in self._failed:
                self._asked[key] = build
        self._submit()

    def pending(self) -> bool:
        """Whether a build asked for has not landed yet."""
        return bool(self._asked or self._in_flight)

    def forget(self) -> None:
        """Drop every build asked for: none lands (one running finishes unseen, or stops at its next step)."""
        self._asked.clear()
        self._in_flight.clear()
        self._failed.clear()
        if self._executor is not None:
            self._executor.cancel()

    def _submit(self) -> None:
        if self._in_flight or not self._asked or self._executor is None:
            return
        self._in_flight, self._asked = self._asked, {}
        self._executor.submit(_job(list(self._in_flight.values())), self._done)

    def _done(self, outcome: Outcome[None]) -> None:
        if outcome.error is not None:  # the timeline keeps drawing from the coarser levels it has
            self._failed.update(self._in_flight)
        self._in_flight = {}
        self._landed()
        self._submit()


def _job(builds: list[Build]) -> Callable[[CancelToken], None]:
    """One job that runs `builds` in turn, stopping between them once cancelled."""

    def job(cancel: CancelToken) -> None:
        for build in builds:
            cancel.check()
            build()

    return job
