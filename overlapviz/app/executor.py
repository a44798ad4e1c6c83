"""Work off the GUI thread, behind a Protocol: a job, its outcome, and who runs it.

A job is a plain function of a `CancelToken` that checks the token between its steps (a
pipeline run prepared for the timeline, both sides of a comparison, a bandwidth sweep). An
`Executor` runs one job at a time and lets the newest win: submitting a job cancels the one
in flight, and only the newest job's outcome reaches its callback. The app's executor is a Qt
thread (`overlapviz._qt.worker`); the controller's tests use one that runs in the caller.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from overlapviz.core.cancel import CancelToken
from overlapviz.core.config import ConfigError, PipelineConfig
from overlapviz.core.i18n import _
from overlapviz.core.run_errors import BackendError, RunCancelled
from overlapviz.session import RunResult
from overlapviz.view.prepared import PreparedView, prepare_view

T = TypeVar("T")
RunFunction = Callable[[PipelineConfig, str, "str | None", CancelToken], RunResult]
Job = Callable[[CancelToken], T]


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """How a job ended: its result, an error in words, or cancelled (neither)."""

    result: T | None = None
    error: str | None = None
    cancelled: bool = False


class Executor(Protocol):
    """Runs jobs one at a time off the GUI thread; the newest job wins."""

    def submit(self, job: Job[T], done: Callable[[Outcome[T]], None]) -> None:
        """Run `job` as soon as possible, superseding the job in flight; `done` gets its outcome.

        `done` is called on the GUI thread, and only if no newer job was submitted (nor
        `cancel` called) before this one ended.
        """
        ...

    def cancel(self) -> None:
        """Drop every job submitted so far: none of their outcomes is reported."""
        ...


def outcome_of(job: Job[T], cancel: CancelToken) -> Outcome[T]:
    """Run `job` and say how it ended; no exception escapes.

    An error of the backend, a bad config or a file becomes its message; anything else (a bug
    in a backend) is reported by type too, so that it cannot take the window down with it.
    """
    try:
        return Outcome(result=job(cancel))
    except RunCancelled:
        return Outcome(cancelled=True)
    except (BackendError, ConfigError, OSError) as error:
        return Outcome(error=str(error))
    except Exception as error:
        return Outcome(
            error=_("the run failed unexpectedly: {kind}: {error}").format(kind=type(error).__name__, error=error)
        )


def run_job(run: RunFunction, config: PipelineConfig, backend: str, device: str | None) -> Job[PreparedView]:
    """A job that runs `config` on (`backend`, `device`) and prepares the run for the timeline."""

    def job(cancel: CancelToken) -> PreparedView:
        result = run(config, backend, device, cancel)
        cancel.check()
        return prepare_view(result, cancel)

    return job
