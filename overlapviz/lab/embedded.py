"""The dispatcher that runs jobs on this machine: one worker process per device, clients in turn.

Each device has a lane (`device_lane`) that takes the next job when the device is free and
runs it on the device's `DeviceWorker` in a thread, so the event loop keeps answering other
requests meanwhile.
"""

from __future__ import annotations

import asyncio
import time

from overlapviz.core.i18n import _
from overlapviz.lab.device_lane import DeviceLane, Waiting, lanes_status
from overlapviz.lab.dispatch import DeviceSpec, DispatchStatus
from overlapviz.lab.job import Job, JobFailed, JobResult
from overlapviz.lab.worker_process import DeviceWorker


class _LocalLane(DeviceLane):
    """One device of this machine: its lane and the worker process that runs its jobs."""

    def __init__(self, device: DeviceSpec, run_limit_s: float) -> None:
        super().__init__(device)
        self.worker = DeviceWorker(device.backend, device.key)
        self.run_limit_s = run_limit_s

    async def serve(self, waiting: Waiting) -> JobResult | JobFailed:
        started = time.time_ns()
        try:
            report, trace = await asyncio.to_thread(self.worker.run, waiting.job.payload(), self.run_limit_s)
        except JobFailed as failed:
            return failed
        return JobResult(
            report, trace, self.device.key, self.device.name, self.device.backend,
            (started - waiting.enqueued_ns) / 1e6, started, time.time_ns(),
        )  # fmt: skip

    async def close(self) -> None:
        await self.stop(_("the server is shutting down"))
        await asyncio.to_thread(self.worker.stop)


class EmbeddedDispatcher:
    """Runs jobs on this machine's devices, one worker process each (see the module's docstring)."""

    def __init__(self, devices: tuple[DeviceSpec, ...], run_limit_s: float) -> None:
        self._devices = devices
        self._lanes = {device.key: _LocalLane(device, run_limit_s) for device in devices}

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
        return lanes_status(self._lanes.values(), client)

    async def close(self) -> None:
        """Stop every lane, fail the jobs still waiting, and stop the workers."""
        await asyncio.gather(*(lane.close() for lane in self._lanes.values()))
