"""Which dispatcher the server uses: the one the ``--queue`` URL names, or the embedded one."""

from __future__ import annotations

from overlapviz.lab.dispatch import DeviceSpec, Dispatcher
from overlapviz.lab.embedded import EmbeddedDispatcher


class QueueUnavailable(ValueError):
    """The ``--queue`` URL cannot be used; the message says why."""


def dispatcher_for(queue_url: str | None, devices: tuple[DeviceSpec, ...], run_limit_s: float) -> Dispatcher:
    """The dispatcher for `queue_url`: None runs the jobs here, one worker process per device.

    Raises
    ------
    QueueUnavailable
        The URL names a queue this build cannot use.
    """
    if queue_url is None:
        return EmbeddedDispatcher(devices, run_limit_s)
    raise QueueUnavailable(f"--queue {queue_url}: no queue of this kind is known to this build")
