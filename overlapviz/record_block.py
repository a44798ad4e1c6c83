"""``overlapviz.record()``: record the CUDA work of a block of your own code, and see what overlapped.

::

    import overlapviz

    with overlapviz.record() as rec:
        train_one_epoch()          # any CuPy or PyTorch code
    print(rec.summary())           # the figures and findings, as `overlapviz analyze` prints them
    rec.save("epoch.json")         # a Chrome trace: `overlapviz render`, the app, chrome://tracing

Importing this module is cheap and needs no GPU: CuPy and CUPTI are imported on entering the
block, which raises a `RuntimeError` (``RecordingUnavailable``) saying why when there is no
CuPy, no GPU or no CUPTI, or when another profiler holds CUPTI.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from overlapviz.backends.cupy.cupti_recording import Recording
    from overlapviz.core.analysis.metrics import Metrics
    from overlapviz.core.findings.finding import Finding
    from overlapviz.core.trace.spans import Trace
    from overlapviz.importers.activity import Activities
    from overlapviz.session import RunResult


class Recorder:
    """What `record` returns: a context manager, and afterwards the trace, figures and findings."""

    def __init__(self, source: str = "overlapviz.record()") -> None:
        self.source = source
        self._recording: Recording | None = None
        self._activities: Activities | None = None
        self._result: RunResult | None = None

    def __enter__(self) -> Recorder:
        from overlapviz.backends.cupy.cupti_recording import Recording

        recording = Recording()
        recording.__enter__()
        self._recording, self._activities, self._result = recording, None, None
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        from overlapviz.recorded_activities import recorded_activities

        recording, self._recording = self._recording, None
        if recording is None:
            return
        recording.__exit__(kind, error, traceback)
        if recording.recorded is not None:
            self._activities = recorded_activities(recording.recorded, self.source)

    @property
    def activities(self) -> Activities:
        """Every copy, kernel and API call recorded, one row each."""
        if self._activities is None:
            raise RuntimeError("nothing has been recorded yet: use 'with overlapviz.record() as rec:' first")
        return self._activities

    @property
    def result(self) -> RunResult:
        """The trace with its metrics and findings.

        Raises
        ------
        overlapviz.importers.to_trace.EmptyTraceError
            The block issued no host-device copy and no kernel.
        """
        if self._result is None:
            from overlapviz.importers.to_trace import activities_to_trace
            from overlapviz.session import analyse

            activities = self.activities
            trace = activities_to_trace(activities)
            self._result = analyse(trace.with_meta(caveat=activities.meta.get("caveat")))
        return self._result

    @property
    def trace(self) -> Trace:
        """The recorded spans, as every view and analysis of overlapviz reads them."""
        return self.result.trace

    @property
    def metrics(self) -> Metrics:
        """The overlap figures of the recording (see docs/metrics.md)."""
        return self.result.metrics

    @property
    def findings(self) -> list[Finding]:
        """What held the overlap back, in words, with the spans each finding is about."""
        return self.result.findings

    def summary(self) -> str:
        """The summary lines and findings, as ``overlapviz analyze`` prints a trace's."""
        from overlapviz.run_report import summary_lines

        return "\n".join(summary_lines(None, self.result))

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the trace as Chrome trace JSON (atomically) and return its path."""
        from overlapviz.core.files.trace_export import export_chrome

        export_chrome(self.trace, path)
        return Path(path)


def record(source: str = "overlapviz.record()") -> Recorder:
    """Record the CUDA copies, kernels and API calls made inside a ``with`` block.

    Parameters
    ----------
    source
        What the recording is of, as the trace's metadata names it.

    Returns
    -------
    Recorder
        Enter it with ``with``; afterwards it holds the trace, metrics and findings.
    """
    return Recorder(source)
