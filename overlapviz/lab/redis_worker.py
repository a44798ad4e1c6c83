"""The worker of one device on a GPU host: it takes the device's jobs from its RQ queue, one at a time.

``overlapviz worker --queue URL --device N`` loads the backend once, claims the device's
registration in Redis (`DeviceClaim`: one live worker per device, renewed by a heartbeat
thread), then serves the device's queue until SIGTERM or Ctrl+C (RQ's warm shutdown: the run
on the device finishes first). Each job is `run_queued_job`, which runs the settings with the
embedded workers' own `job_run.run_payload`; a run that fails answers its reason and the
worker goes on.

RQ's `SimpleWorker` runs each job in this process instead of a forked child (RQ's `Worker`):
CUDA cannot be used in a child forked after the parent made a context, and a child per job
would load CuPy, make a context and compile the kernels again for every run (seconds). Here
the backend loads once and every run finds it warm. A run over the time limit is stopped by
RQ's alarm (SIGALRM), which works in this process too.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import threading
import time
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rq import SimpleWorker
from rq.job import Job as RqJob
from rq.queue import Queue
from rq.serializers import JSONSerializer

from overlapviz.backends.base import Backend
from overlapviz.core.i18n import _
from overlapviz.lab.devices import offered_devices
from overlapviz.lab.job import JobFailed
from overlapviz.lab.job_run import run_payload, took_too_long
from overlapviz.lab.redis_link import (
    HEARTBEAT_EVERY_S,
    HEARTBEAT_TTL_S,
    RUN_FUNCTION,
    QueueError,
    Registration,
    connect,
    device_key,
    queue_name,
    registration_key,
)
from overlapviz.session import find_backend

if TYPE_CHECKING:
    from redis import Redis


class LabJob(RqJob):
    """An RQ job that can only be `run_queued_job`: no other function, no callbacks, no webhooks.

    Whoever can write to Redis can put any function's name in a job; this worker runs
    pipeline settings and nothing else.
    """

    @property
    def func(self) -> Any:
        """`run_queued_job` when the job names it; any other name fails the job without importing it."""
        if self.func_name != RUN_FUNCTION:
            message = _("this worker runs only {function}, not {name}")
            raise JobFailed(message.format(function=RUN_FUNCTION, name=repr(self.func_name)))
        return run_queued_job

    @property
    def success_callback(self) -> None:
        """None: the front reads the result, nothing is called back."""
        return None

    @property
    def failure_callback(self) -> None:
        """None, as `success_callback`."""
        return None

    @property
    def stopped_callback(self) -> None:
        """None, as `success_callback`."""
        return None

    def send_webhooks(self, *_: Any, **__: Any) -> None:
        """Send nothing: a job's webhooks would make the worker call any address it names."""


@dataclass(frozen=True, slots=True)
class _Serving:
    """What this process serves: the backend (loaded once), its device key, and the device's registration."""

    backend: Backend
    device: str
    registration: Registration


_serving: _Serving | None = None  # set once by `serve_device`; the jobs run in this process (SimpleWorker)


def run_queued_job(payload: Any, limit_s: float, worker: str) -> dict[str, Any]:
    """Run one job's payload (`lab.job.Job.payload`) on this worker's device; the front's answer as JSON values.

    `worker` is the token of the worker the front sent it to: a job left from before this
    worker started is answered, not run. A run that fails answers ``{"failed": reason}``.
    """
    serving = _serving
    if serving is None:
        return {"failed": _("no device is served in this process")}
    registration = serving.registration
    if worker != registration.worker or not isinstance(payload, dict) or payload.get("device") != registration.key:
        message = _("this job was sent to an earlier worker of device {device}")
        return {"failed": message.format(device=registration.key)}
    started = time.time_ns()
    try:
        report, trace = run_payload(serving.backend, {"config": payload.get("config"), "device": serving.device})
    except JobFailed as failed:
        if time.time_ns() - started >= limit_s * 1e9:  # RQ's alarm stopped it; say so rather than how
            return {"failed": took_too_long(limit_s)}
        return {"failed": str(failed)}
    ended = time.time_ns()
    where = {"device_name": registration.name, "worker": f"{registration.host} pid {registration.pid}"}
    return {"report": report, "trace": trace, "started_ns": started, "ended_ns": ended, **where}


def _already_served(key: str, holder: Registration | None) -> str:
    """Why a worker cannot serve device `key`: `holder`, a live worker, does (None: its registration is unreadable)."""
    if holder is None:
        return _("device {device} already has a live worker: stop it first").format(device=key)
    message = _("device {device} already has a live worker (host {host}, pid {pid}): stop it first")
    return message.format(device=key, host=holder.host, pid=holder.pid)


class DeviceClaim:
    """The registration of this worker's device: claimed once, renewed by a heartbeat thread, deleted at the end."""

    def __init__(self, client: Redis, registration: Registration) -> None:
        self.client = client
        self.registration = registration
        self._key = registration_key(registration.key)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name="overlapviz-heartbeat", daemon=True)

    def __enter__(self) -> DeviceClaim:
        """Claim the device, waiting out the heartbeat of a worker that died; QueueError if a live one holds it."""
        deadline = time.monotonic() + HEARTBEAT_TTL_S + 1
        value = self.registration.to_json()
        while not self.client.set(self._key, value, nx=True, ex=HEARTBEAT_TTL_S):
            holder = Registration.from_json(self._holder() or "")
            alive = _alive_here(holder, self.registration.host)
            if alive is False:  # its worker on this host is gone: no need to wait for its heartbeat to run out
                self.client.delete(self._key)
            elif alive or time.monotonic() > deadline:
                raise QueueError(_already_served(self.registration.key, holder))
            time.sleep(0.2)
        self._thread.start()
        return self

    def _beat(self) -> None:
        value = self.registration.to_json()
        while not self._stop.wait(HEARTBEAT_EVERY_S):
            with contextlib.suppress(Exception):  # Redis away for a moment: the next beat tries again
                holder = self._holder()
                if holder is None or holder == value:
                    self.client.set(self._key, value, ex=HEARTBEAT_TTL_S)

    def _holder(self) -> str | None:
        """The registration stored now (this worker's, another's, or None)."""
        value: bytes | None = self.client.get(self._key)  # type: ignore[assignment]  # the client answers bytes
        return None if value is None else value.decode()

    def __exit__(self, *_: object) -> None:
        """Stop the heartbeat and delete the registration if it is still this worker's."""
        self._stop.set()
        self._thread.join()
        with contextlib.suppress(Exception):
            if self._holder() == self.registration.to_json():
                self.client.delete(self._key)


def _alive_here(holder: Registration | None, host: str) -> bool | None:
    """Whether `holder`'s worker process lives, when it ran on this host; None when that cannot be told here."""
    if holder is None or holder.host != host:
        return None
    try:
        os.kill(holder.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True


def serve_device(url: str, backend_name: str, device: str) -> int:
    """Serve the device `device` of the backend `backend_name` (a key or a 0-based place) from the queue at `url`.

    Raises
    ------
    QueueError
        Redis cannot be reached, or the device has a live worker already.
    DeviceChoiceError, BackendError
        The backend cannot start here or has no such device.
    """
    global _serving
    client = connect(url)
    backend_name, (spec,) = offered_devices(backend_name, [device])
    host, token = socket.gethostname(), uuid.uuid4().hex
    registration = Registration(device_key(host, spec.key), spec.name, backend_name, token, host, os.getpid())
    _serving = _Serving(find_backend(backend_name), spec.key, registration)
    queue = Queue(queue_name(registration.key), connection=client, serializer=JSONSerializer)
    with DeviceClaim(client, registration):
        worker = SimpleWorker(
            [queue], connection=client, serializer=JSONSerializer, job_class=LabJob,
            name=f"{registration.key}-{registration.worker[:8]}",
        )  # fmt: skip
        print(f"device: {registration.key}\nname: {spec.name}\nbackend: {backend_name}\nready", flush=True)
        worker.work(logging_level="WARNING")
    print("stopped", file=sys.stderr, flush=True)
    return 0
