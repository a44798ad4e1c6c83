"""Which dispatcher the server uses: the one the ``--queue`` URL names, or the embedded one."""

from __future__ import annotations

from overlapviz.core.i18n import _
from overlapviz.lab.dispatch import DeviceSpec, Dispatcher
from overlapviz.lab.embedded import EmbeddedDispatcher


class QueueUnavailable(ValueError):
    """The ``--queue`` URL cannot be used; the message says why."""


def dispatcher_for(queue_url: str | None, devices: tuple[DeviceSpec, ...], run_limit_s: float) -> Dispatcher:
    """The dispatcher for `queue_url`: None runs the jobs here, one worker process per device.

    A ``redis://`` (or ``rediss://``, ``unix://``) URL takes the jobs through RQ to the
    ``overlapviz worker`` processes of the GPU hosts; their devices are the server's, not `devices`.

    Raises
    ------
    QueueUnavailable
        The URL names a queue this build cannot use, or cannot be reached.
    """
    if queue_url is None:
        return EmbeddedDispatcher(devices, run_limit_s)
    if queue_url.startswith(("redis://", "rediss://", "unix://")):
        from overlapviz.lab.redis_link import QueueError
        from overlapviz.lab.redis_queue import RedisDispatcher

        try:
            return RedisDispatcher.connect(queue_url, run_limit_s)
        except QueueError as error:
            raise QueueUnavailable(str(error)) from None
    message = _("--queue {url}: no queue of this kind is known to this build; give redis://HOST:PORT/DB")
    raise QueueUnavailable(message.format(url=queue_url))
