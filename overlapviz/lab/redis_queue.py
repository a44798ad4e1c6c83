"""The front's dispatcher on a Redis job queue (RQ): jobs run on the GPU hosts' ``overlapviz worker`` processes.

The devices are those whose worker's registration is live in Redis (`redis_link`); a watcher
re-reads them every `WATCH_EVERY_S`. Each device has a `FairQueue` here and one lane task
that puts the next job on the device's RQ queue only when the device has none in flight, so
each GPU runs one job at a time, learners taken in turn, as with the embedded dispatcher.
The lane waits for RQ's result in a thread of its own pool (a blocking read of at most
`POLL_S`), so the event loop goes on answering. A device whose worker stops mid-run (its
heartbeat runs out, or another worker took the device over) fails its running and waiting
jobs with a reason; they are not run again: a run that killed its worker would kill the next.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from overlapviz.core.i18n import _
from overlapviz.lab.device_lane import DeviceLane, Waiting, lanes_status, settle
from overlapviz.lab.dispatch import DeviceSpec, DispatchStatus
from overlapviz.lab.job import Job, JobFailed, JobResult
from overlapviz.lab.job_run import one_line
from overlapviz.lab.redis_link import RUN_FUNCTION, Registration, connect, live_registrations, queue_name

if TYPE_CHECKING:
    from redis import Redis
    from rq.job import Job as RqJob

WATCH_EVERY_S = 1.0
POLL_S = 1  # seconds one blocking read of a result may take (RQ counts whole seconds)
ANSWER_GRACE_S = 10.0  # past the run limit, how long the caller waits for the worker's own stop to answer
RESULT_TTL_S = 600  # how long Redis keeps a result the front has not read yet
Value = TypeVar("Value")


class _RemoteLane(DeviceLane):
    """One device served by a remote worker: its lane, which hands the worker one job at a time through RQ."""

    def __init__(self, owner: RedisDispatcher, registration: Registration) -> None:
        super().__init__(DeviceSpec(registration.key, registration.name, registration.backend))
        self.owner = owner
        self.registration = registration
        self._rq_job: RqJob | None = None  # the running job's, once it is on RQ's queue
        self.start()

    async def serve(self, waiting: Waiting) -> JobResult | JobFailed:
        try:
            return await self._run(waiting)
        finally:
            self._rq_job = None

    async def _run(self, waiting: Waiting) -> JobResult | JobFailed:
        worker = self.registration.worker
        limit_s = self.owner.run_limit_s
        try:
            rq_job = await self.owner.call(self.owner.enqueue, self.device.key, waiting.job, worker)
        except Exception as error:
            return JobFailed(one_line(_("the job queue cannot be reached: {error}").format(error=error)))
        self._rq_job = rq_job
        deadline = time.monotonic() + limit_s + ANSWER_GRACE_S
        while True:
            try:
                result = await self.owner.call(rq_job.latest_result, POLL_S)
            except Exception as error:  # Redis away for a moment: the worker may still answer
                _say_queue_away(error)
                await asyncio.sleep(POLL_S)
                continue
            if result is not None:
                return self._outcome(result, waiting)
            if self.registration.worker != worker:  # another worker took the device over
                await self.owner.call(_forget, rq_job)
                return JobFailed(_worker_stopped(self.device.key))
            if time.monotonic() > deadline:  # the worker stops a run at the limit; give the caller its answer now
                message = _("the run took over the server's limit of {seconds} s").format(seconds=f"{limit_s:g}")
                settle(waiting.done, JobFailed(message))

    def _outcome(self, result: Any, waiting: Waiting) -> JobResult | JobFailed:
        answer = result.return_value
        if not isinstance(answer, dict) or "report" not in answer:
            reason = answer.get("failed") if isinstance(answer, dict) else None
            said = reason or _last_line(result.exc_string) or _("the run failed on its worker")
            return JobFailed(one_line(str(said)))
        started, ended = int(answer["started_ns"]), int(answer["ended_ns"])
        return JobResult(
            answer["report"], answer["trace"], self.device.key, str(answer["device_name"]), self.device.backend,
            max(0.0, (started - waiting.enqueued_ns) / 1e6), started, ended, extra={"worker": answer["worker"]},
        )  # fmt: skip

    async def close(self, reason: str) -> None:
        """Stop feeding the worker; the job in flight and those waiting fail with `reason`."""
        rq_job = self._rq_job
        await self.stop(reason)
        if rq_job is not None:
            await self.owner.call(_forget, rq_job)


def _worker_stopped(key: str) -> str:
    return _("the worker of device {device} stopped; run it again").format(device=key)


def _say_queue_away(error: Exception) -> None:
    """Tell the server's terminal that Redis failed a call (it may answer again soon)."""
    print(one_line(_("overlapviz serve: the job queue: {error}").format(error=error)), file=sys.stderr, flush=True)


def _last_line(text: str | None) -> str:
    lines = [line for line in (text or "").splitlines() if line.strip()]
    return lines[-1] if lines else ""


def _forget(rq_job: RqJob) -> None:
    """Take a job nobody waits for out of its queue (its worker is gone), so a new worker does not run it."""
    with contextlib.suppress(Exception):
        rq_job.delete()


class RedisDispatcher:
    """Runs jobs on the workers that serve their devices through Redis (see the module's docstring)."""

    def __init__(self, client: Redis, run_limit_s: float) -> None:
        self.client = client
        self.run_limit_s = run_limit_s
        self.lanes: dict[str, _RemoteLane] = {}
        self._threads = ThreadPoolExecutor(max_workers=64, thread_name_prefix="overlapviz-queue")
        self._watcher: asyncio.Task[None] | None = None

    @classmethod
    def connect(cls, url: str, run_limit_s: float) -> RedisDispatcher:
        """The dispatcher on the Redis at `url` (`redis_link.QueueError` when it cannot be used)."""
        return cls(connect(url), run_limit_s)

    @property
    def devices(self) -> tuple[DeviceSpec, ...]:
        """The devices with a live worker now, by key."""
        return tuple(lane.device for lane in self.lanes.values())

    async def start(self) -> None:
        """Read the live devices, then keep them up to date."""
        await self._refresh()
        self._watcher = asyncio.create_task(self._watch(), name="redis-devices")

    async def call(self, function: Callable[..., Value], *args: Any) -> Value:
        """`function(*args)` (a blocking Redis call) in the dispatcher's threads."""
        return await asyncio.get_running_loop().run_in_executor(self._threads, function, *args)

    def enqueue(self, key: str, job: Job, worker: str) -> RqJob:
        """Put `job` on device `key`'s RQ queue for its worker `worker` (blocking)."""
        from rq.queue import Queue
        from rq.serializers import JSONSerializer

        queue = Queue(queue_name(key), connection=self.client, serializer=JSONSerializer)
        return queue.enqueue_call(
            RUN_FUNCTION, args=(job.payload(), self.run_limit_s, worker), timeout=math.ceil(self.run_limit_s),
            result_ttl=RESULT_TTL_S, failure_ttl=RESULT_TTL_S,
        )  # fmt: skip

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(WATCH_EVERY_S)
            try:
                await self._refresh()
            except Exception as error:  # Redis away: keep the devices known until it answers again
                _say_queue_away(error)

    async def _refresh(self) -> None:
        live = {registration.key: registration for registration in await self.call(live_registrations, self.client)}
        for key in [key for key in self.lanes if key not in live]:
            lane = self.lanes.pop(key)
            await lane.close(_worker_stopped(key))
        for key, registration in live.items():
            if key not in self.lanes:
                self.lanes[key] = _RemoteLane(self, registration)
            else:
                self.lanes[key].registration = registration  # a new worker token fails the run of the old one
        self.lanes = dict(sorted(self.lanes.items()))

    async def run(self, client: str, job: Job) -> JobResult:
        """Queue `job` on its device behind `client`'s other jobs and wait for its result."""
        lane = self.lanes.get(job.device)
        if lane is None:
            raise JobFailed(_("device {device} has no worker now").format(device=job.device))
        return await lane.submit(client, job)

    def status(self, client: str) -> DispatchStatus:
        """Every live device's state, and `client`'s jobs and place."""
        return lanes_status(self.lanes.values(), client)

    async def close(self) -> None:
        """Stop watching, fail the jobs still waiting, and let go of Redis."""
        if self._watcher is not None:
            self._watcher.cancel()
            await asyncio.gather(self._watcher, return_exceptions=True)
        await asyncio.gather(*(lane.close(_("the server is shutting down")) for lane in self.lanes.values()))
        self.lanes.clear()
        self._threads.shutdown(wait=False, cancel_futures=True)
        self.client.close()
