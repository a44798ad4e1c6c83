"""Running both sides of a comparison as one job off the GUI thread, each prepared for its timeline."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from overlapviz.app.executor import RunFunction
from overlapviz.app.run_targets import RunTarget
from overlapviz.core.cancel import CancelToken
from overlapviz.core.config import HostMemory, PipelineConfig
from overlapviz.core.i18n import _
from overlapviz.session import RunResult
from overlapviz.view.prepared import PreparedView, prepare_view


@dataclass(frozen=True)
class Side:
    """One side of a comparison: a run, prepared for the timeline, its name (``pageable``; empty for none) and its file.

    `source` is the file the side was opened from (None: a run).
    """

    view: PreparedView
    label: str = ""
    source: Path | None = None

    @property
    def result(self) -> RunResult:
        """The run."""
        return self.view.result


@dataclass(frozen=True)
class SideRequest:
    """What one side runs, where, and its name."""

    config: PipelineConfig
    target: RunTarget
    label: str = ""


@dataclass(frozen=True)
class PairResult:
    """Both sides' runs: A, then B."""

    a: Side
    b: Side
    title: str = ""


def pair_job(
    sides: tuple[SideRequest, SideRequest], run: RunFunction, title: str = ""
) -> Callable[[CancelToken], PairResult]:
    """A job that runs A, then B (a cancel between or during them stops it); `title` names the pair."""

    def job(cancel: CancelToken) -> PairResult:
        results = []
        for side in sides:
            cancel.check()
            result = run(side.config, side.target.backend, side.target.device, cancel)
            results.append(Side(prepare_view(result, cancel), side.label))
        return PairResult(results[0], results[1], title)

    return job


def pageable_vs_pinned(config: PipelineConfig, target: RunTarget) -> tuple[SideRequest, SideRequest]:
    """`config` from pageable memory (A) and from pinned memory (B), on `target`.

    A fresh output buffer is a pageable thing only: the pinned side drops it.
    """
    return (
        SideRequest(config.replace(memory=HostMemory.PAGEABLE), target, _("pageable")),
        SideRequest(config.replace(memory=HostMemory.PINNED, fresh_output=False), target, _("pinned")),
    )
