"""The dispatcher that runs jobs on this machine: one worker process per device, clients in turn.

Each device has a `FairQueue` and one lane task that takes the next job when the device is
free and runs it on the device's `DeviceWorker` in a thread, so the event loop keeps
answering other requests meanwhile. A job whose caller went away before its turn is skipped.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from overlapviz.lab.dispatch import DeviceSpec, DeviceState, DispatchStatus
from overlapviz.lab.fair_queue import FairQueue
from overlapviz.lab.job import Job, JobFailed, JobResult
from overlapviz.lab.worker_process import DeviceWorker


@dataclass
class _Waiting:
    job: Job
    enqueued_ns: int
    done: asyncio.Future[JobResult]


class _DeviceLane:
    """One device: its queue, its worker, and the task that feeds the one to the other."""

    def __init__(self, device: DeviceSpec, run_limit_s: float) -> None:
        self.device = device
        self.queue: FairQueue[_Waiting] = FairQueue()
        self.worker = DeviceWorker(device.backend, device.key)
        self.busy = False
        self.run_limit_s = run_limit_s
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._feed(), name=f"lane-{self.device.key}")

    def submit(self, client: str, job: Job) -> asyncio.Future[JobResult]:
        waiting = _Waiting(job, time.time_ns(), asyncio.get_running_loop().create_future())
        self.queue.push(client, waiting)
        self._wake.set()
        return waiting.done

    async def _feed(self) -> None:
        while True:
            popped = self.queue.pop()
            if popped is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            waiting = popped[1]
            if not waiting.done.done():  # its caller may have gone away
                await self._run(waiting)

    async def _run(self, waiting: _Waiting) -> None:
        self.busy = True
        started = time.time_ns()
        try:
            report, trace = await asyncio.to_thread(self.worker.run, waiting.job.payload(), self.run_limit_s)
        except JobFailed as failed:
            _settle(waiting.done, failed)
            return
        finally:
            self.busy = False
        ended = time.time_ns()
        result = JobResult(
            report, trace, self.device.key, self.device.name, self.device.backend,
            (started - waiting.enqueued_ns) / 1e6, started, ended,
        )  # fmt: skip
        _settle(waiting.done, result)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        for waiting in self.queue.drain():
            _settle(waiting.done, JobFailed("the server is shutting down"))
        await asyncio.to_thread(self.worker.stop)


def _settle(done: asyncio.Future[JobResult], outcome: JobResult | JobFailed) -> None:
    if done.done():
        return
    if isinstance(outcome, JobFailed):
        done.set_exception(outcome)
    else:
        done.set_result(outcome)


class EmbeddedDispatcher:
    """Runs jobs on this machine's devices, one worker process each (see the module's docstring)."""

    def __init__(self, devices: tuple[DeviceSpec, ...], run_limit_s: float) -> None:
        self._devices = devices
        self._lanes = {device.key: _DeviceLane(device, run_limit_s) for device in devices}

    @property
    def devices(self) -> tuple[DeviceSpec, ...]:
        """The devices jobs may name, the default first."""
        return self._devices

    async def start(self) -> None:
        """Start every device's worker (together: each loads its backend) and its lane."""
        await asyncio.gather(*(asyncio.to_thread(lane.worker.start) for lane in self._lanes.values()))
        for lane in self._lanes.values():
            lane.start()

    async def run(self, client: str, job: Job) -> JobResult:
        """Queue `job` on its device behind `client`'s other jobs and wait for its result."""
        return await self._lanes[job.device].submit(client, job)

    def status(self, client: str) -> DispatchStatus:
        """Every device's state, and `client`'s jobs and place."""
        lanes = self._lanes.values()
        states = tuple(DeviceState(lane.device, lane.busy, len(lane.queue)) for lane in lanes)
        places = [place for lane in lanes if (place := lane.queue.position(client))]
        queued = sum(lane.queue.queued_of(client) for lane in lanes)
        return DispatchStatus(states, queued, min(places, default=0))

    async def close(self) -> None:
        """Stop every lane, fail the jobs still waiting, and stop the workers."""
        await asyncio.gather(*(lane.close() for lane in self._lanes.values()))
