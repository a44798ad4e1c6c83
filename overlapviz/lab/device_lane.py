"""One device's turn-taking: its fair queue, and the task that hands it one job at a time.

Both dispatchers, this machine's worker processes (`embedded`) and the GPU hosts' workers
behind Redis (`redis_queue`), keep a lane per device. Learners' jobs wait in the device's
`FairQueue`; the lane's task takes the next one only when the device is free, so a device
runs one job at a time, learners taken in turn. A job whose caller went away before its turn
is skipped. What running a job on the device means is each dispatcher's own `serve`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from dataclasses import dataclass

from overlapviz.lab.dispatch import DeviceSpec, DeviceState, DispatchStatus
from overlapviz.lab.fair_queue import FairQueue
from overlapviz.lab.job import Job, JobFailed, JobResult


@dataclass
class Waiting:
    """A job in a device's queue: when it came, and the future its caller awaits."""

    job: Job
    enqueued_ns: int
    done: asyncio.Future[JobResult]


class DeviceLane:
    """One device's queue and the task that feeds its jobs, one at a time, to `serve`."""

    def __init__(self, device: DeviceSpec) -> None:
        self.device = device
        self.queue: FairQueue[Waiting] = FairQueue()
        self.busy = False
        self.running: Waiting | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start taking jobs (in the running event loop)."""
        self._task = asyncio.create_task(self._feed(), name=f"lane-{self.device.key}")

    def submit(self, client: str, job: Job) -> asyncio.Future[JobResult]:
        """Queue `job` behind `client`'s other jobs; the future its result (or `JobFailed`) settles."""
        waiting = Waiting(job, time.time_ns(), asyncio.get_running_loop().create_future())
        self.queue.push(client, waiting)
        self._wake.set()
        return waiting.done

    async def serve(self, waiting: Waiting) -> JobResult | JobFailed:
        """Run `waiting`'s job on the device: its result, or why it failed."""
        raise NotImplementedError

    async def _feed(self) -> None:
        while True:
            popped = self.queue.pop()
            if popped is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            waiting = popped[1]
            if waiting.done.done():  # its caller went away
                continue
            self.busy, self.running = True, waiting
            try:
                settle(waiting.done, await self.serve(waiting))
            finally:
                self.busy, self.running = False, None

    async def stop(self, reason: str) -> None:
        """Stop taking jobs; the one running and those waiting fail with `reason`."""
        running = self.running
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if running is not None:
            settle(running.done, JobFailed(reason))
        for waiting in self.queue.drain():
            settle(waiting.done, JobFailed(reason))


def settle(done: asyncio.Future[JobResult], outcome: JobResult | JobFailed) -> None:
    """Give `done` its result or failure, unless it has one (its caller went, or it was settled early)."""
    if done.done():
        return
    if isinstance(outcome, JobFailed):
        done.set_exception(outcome)
    else:
        done.set_result(outcome)


def lanes_status(lanes: Iterable[DeviceLane], client: str) -> DispatchStatus:
    """Every lane's device state, and `client`'s jobs and first place among them."""
    lanes = list(lanes)
    states = tuple(DeviceState(lane.device, lane.busy, len(lane.queue)) for lane in lanes)
    places = [place for lane in lanes if (place := lane.queue.position(client))]
    queued = sum(lane.queue.queued_of(client) for lane in lanes)
    return DispatchStatus(states, queued, min(places, default=0))
