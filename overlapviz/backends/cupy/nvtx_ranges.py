"""NVTX ranges (domain ``overlapviz``): one per run and one per issued op.

Under Nsight Systems a run then shows the same structure as the app's timeline, in the same
colours. The attributes are built before the timed region (building them costs more than the
push and pop); with no profiler attached a push+pop costs about 0.3 us. Without the ``nvtx``
package every call is a no-op.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from overlapviz.core.config.pipeline_plan import PlannedOp
from overlapviz.core.trace.spans import OpKind

DOMAIN = "overlapviz"
# ARGB, the app's timeline colours for every kind a pipeline plan issues (Okabe-Ito: bluish
# green, blue, reddish purple; Tol's olive and indigo for prefetches and host copies; grey for
# a run), so Nsight Systems shows a run in the colours the app draws it in.
COLOURS = {
    OpKind.H2D: 0xFF009E73,
    OpKind.KERNEL: 0xFF0072B2,
    OpKind.D2H: 0xFFCC79A7,
    OpKind.PREFETCH: 0xFF999933,
    OpKind.HOST_COPY: 0xFF332288,
    OpKind.API: 0xFF999999,
}


class NvtxRanges:
    """Pushes and pops ranges in one domain; silent when ``nvtx`` is not installed."""

    def __init__(self) -> None:
        try:
            import nvtx
        except ImportError:
            self._domain: Any = None
        else:
            self._domain = nvtx.get_domain(DOMAIN)
        self._run: Any = None
        self._ops: list[Any] = []

    @property
    def enabled(self) -> bool:
        """Whether ranges are emitted."""
        return self._domain is not None

    def prepare(self, title: str, plan: Sequence[PlannedOp]) -> None:
        """Build the attributes of the next run's ranges (outside the timed region)."""
        if self._domain is None:
            return
        attributes = self._domain.get_event_attributes
        self._run = attributes(message=title, color=COLOURS[OpKind.API])
        self._ops = [attributes(message=op.label, color=COLOURS[op.kind]) for op in plan]

    def push_run(self) -> None:
        """Open the run's range."""
        if self._domain is not None:
            self._domain.push_range(self._run)

    def push_op(self, index: int) -> None:
        """Open the range of op `index` of the prepared plan."""
        if self._domain is not None:
            self._domain.push_range(self._ops[index])

    def pop(self) -> None:
        """Close the innermost open range."""
        if self._domain is not None:
            self._domain.pop_range()
