"""The seam between the lab server's HTTP side and what runs its jobs.

The HTTP side (`http_app`) checks credentials, limits and the cache, then hands each job to a
`Dispatcher`. `embedded.EmbeddedDispatcher` runs jobs in one worker process per device on
this machine; a queue across machines plugs in here too (`dispatchers.dispatcher_for`).
Every dispatcher keeps the same promises: one run per device at a time, jobs of different
clients taken in turn (round-robin by client), times on the server's clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from overlapviz.lab.job import Job, JobResult


@dataclass(frozen=True, slots=True)
class DeviceSpec:
    """A device the server offers: its key (what a request's "device" takes), its name, its backend."""

    key: str
    name: str
    backend: str


@dataclass(frozen=True, slots=True)
class DeviceState:
    """One device now: whether a run is on it and how many jobs wait for it."""

    device: DeviceSpec
    busy: bool
    queued: int


@dataclass(frozen=True, slots=True)
class DispatchStatus:
    """The devices now, and one client's share: its jobs waiting or running, and its place in line."""

    devices: tuple[DeviceState, ...]
    client_queued: int  # the client's jobs waiting for a device
    client_position: int  # 1-based place of its oldest waiting job in its device's order; 0 if none waits

    @property
    def queued(self) -> int:
        """Jobs waiting on every device."""
        return sum(state.queued for state in self.devices)


class Dispatcher(Protocol):
    """Runs jobs on the server's devices, one at a time per device, clients in turn."""

    @property
    def devices(self) -> tuple[DeviceSpec, ...]:
        """The devices jobs may name, the default first."""
        ...

    async def start(self) -> None:
        """Get ready to run (start workers, connect to a queue); called once before the first job."""
        ...

    async def run(self, client: str, job: Job) -> JobResult:
        """Run `job` for `client` when its turn comes; `JobFailed` when the run itself fails."""
        ...

    def status(self, client: str) -> DispatchStatus:
        """The devices now and `client`'s share of them."""
        ...

    async def close(self) -> None:
        """Stop taking jobs and shut the workers down; waiting jobs fail with `JobFailed`."""
        ...
