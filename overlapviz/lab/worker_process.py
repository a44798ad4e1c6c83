"""One long-lived worker process per device, fed one job at a time over a pipe.

The process loads its backend once (imports, CUDA context, compiled kernels) and then runs
job after job, so a run costs the run, not the start-up. A run over the time limit, or one
that kills its process, restarts the worker; a run that fails answers its reason and the
worker goes on. `DeviceWorker.run` blocks: the server calls it from a thread. The process
speaks the server's language (a fresh process would take the environment's, not ``--lang``'s).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
from multiprocessing.connection import Connection
from typing import Any

from overlapviz.core.i18n import _, current_language, set_language
from overlapviz.lab.job import JobFailed
from overlapviz.lab.job_run import Outcome, one_line, took_too_long

START_LIMIT_S = 120.0  # loading CuPy and a GPU's context can take tens of seconds on a busy machine
STOP_LIMIT_S = 5.0


def serve_jobs(connection: Connection, backend_name: str, language: str) -> None:
    """The worker process: load the backend, say ready, then answer each payload until None or the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the server's to handle: it stops the workers
    set_language(language)
    from overlapviz.lab.job_run import run_payload
    from overlapviz.session import find_backend

    try:
        backend = find_backend(backend_name)
    except Exception as error:  # the server reports it at start
        message = _("the {backend} backend cannot start: {error}").format(backend=backend_name, error=error)
        connection.send(("failed", one_line(message)))
        return
    connection.send(("ready",))
    while True:
        try:
            payload = connection.recv()
        except (EOFError, OSError):
            return
        if payload is None:
            return
        try:
            answer: tuple[Any, ...] = ("ok", *run_payload(backend, payload))
        except JobFailed as failed:
            answer = ("failed", str(failed))
        try:
            connection.send(answer)
        except OSError:  # the server stopped while this run went on: nobody waits for it
            return


class DeviceWorker:
    """The parent's side of one device's worker process."""

    def __init__(self, backend_name: str, device: str) -> None:
        self.backend_name = backend_name
        self.device = device
        self._process: Any = None
        self._connection: Connection | None = None

    def start(self) -> None:
        """Start the process and wait until its backend is loaded.

        Raises
        ------
        JobFailed
            The backend cannot start in the worker; the message says why.
        """
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        arguments = (theirs, self.backend_name, current_language())
        name = f"overlapviz-{self.device}"
        self._process = context.Process(target=serve_jobs, args=arguments, name=name, daemon=True)
        self._process.start()
        theirs.close()
        self._connection = ours
        try:
            late = _("not ready after {seconds} s").format(seconds=f"{START_LIMIT_S:g}")
            answer = ours.recv() if ours.poll(START_LIMIT_S) else ("failed", late)
        except (EOFError, OSError):
            message = _("the worker process ended at start (exit code {code})")
            answer = ("failed", message.format(code=self._process.exitcode))
        if answer[0] != "ready":
            self.stop(graceful=False)
            raise JobFailed(_("device {device}: {reason}").format(device=self.device, reason=answer[1]))

    def run(self, payload: dict[str, Any], limit_s: float) -> Outcome:
        """Run one payload; its report and trace.

        Raises
        ------
        JobFailed
            The run failed, took over `limit_s` (the worker is restarted) or stopped its
            process (restarted too).
        """
        if self._connection is None:
            raise JobFailed(_("the device's worker is not running"))
        self._connection.send(payload)
        answer = self._answer(limit_s)
        if answer[0] == "failed":
            raise JobFailed(answer[1])
        return answer[1], answer[2]

    def _answer(self, limit_s: float) -> tuple[Any, ...]:
        assert self._connection is not None
        if not self._connection.poll(limit_s):
            self.restart()
            raise JobFailed(took_too_long(limit_s))
        try:
            answer: tuple[Any, ...] = self._connection.recv()
        except (EOFError, OSError):
            code = self._process.exitcode if self._process is not None else None
            self.restart()
            message = _("the run stopped its worker process (exit code {code}; out of memory?)")
            raise JobFailed(message.format(code=code)) from None
        return answer

    def restart(self) -> None:
        """Kill the process and start a fresh one."""
        self.stop(graceful=False)
        self.start()

    def stop(self, graceful: bool = True) -> None:
        """End the process: asked to finish when `graceful`, killed when it does not in time (or at once)."""
        process, connection = self._process, self._connection
        self._process, self._connection = None, None
        if connection is not None:
            if graceful:
                with contextlib.suppress(OSError):  # the process may be gone already
                    connection.send(None)
            connection.close()
        if process is None:
            return
        process.join(STOP_LIMIT_S if graceful else 0)
        if process.is_alive():
            process.kill()
            process.join(STOP_LIMIT_S)
