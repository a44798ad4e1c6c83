"""``overlapviz worker``: serve one GPU (or a model of one) to a lab server's job queue on Redis.

Run one on each device of each GPU host; ``overlapviz serve --queue URL`` on the front hands
them the class's jobs, one at a time per device (`lab.redis_worker`, docs/lab.md).
"""

from __future__ import annotations

import argparse
from typing import Any

from overlapviz.backends import registry
from overlapviz.commands.errors import UsageError
from overlapviz.core.i18n import _
from overlapviz.lab.devices import DeviceChoiceError
from overlapviz.lab.redis_link import INSTALL_HINT, QueueError


def add_worker(commands: Any) -> None:
    """Add ``overlapviz worker``."""
    parser = commands.add_parser(
        "worker",
        help=_("serve one device of this host to a lab server through its job queue (Redis)"),
        description=_(
            "Serve one device of this host to 'overlapviz serve --queue URL': take the device's jobs from the queue one"
            " at a time and answer each, until Ctrl+C or SIGTERM (the run on the device finishes first). Needs the rq"
            " and redis packages ({hint}). See docs/lab.md."
        ).format(hint=INSTALL_HINT),
    )
    parser.set_defaults(command=worker_command)
    parser.add_argument("--queue", required=True, metavar="URL", help=_("the Redis the front uses: redis://HOST:PORT/DB"))
    parser.add_argument("--device", default="0", metavar="N",
                        help=_("the device: a 0-based place in the backend's list, or its key (default: 0)"))
    parser.add_argument("--backend", choices=("auto", *registry.BACKEND_NAMES), default="auto",
                        help=_("default: auto (the real GPU if usable, else the model)"))


def worker_command(args: argparse.Namespace) -> int:
    """Serve the device until Ctrl+C or SIGTERM."""
    if not args.queue.startswith(("redis://", "rediss://", "unix://")):
        raise UsageError(_("--queue {url}: give a Redis URL, redis://HOST:PORT/DB").format(url=args.queue))
    try:
        from overlapviz.lab.redis_worker import serve_device
    except ImportError as error:  # rq or redis missing
        message = _("overlapviz worker needs the rq and redis packages ({missing} is missing): {hint}")
        raise UsageError(message.format(missing=error.name, hint=INSTALL_HINT)) from None
    try:
        return serve_device(args.queue, args.backend, args.device)
    except (QueueError, DeviceChoiceError) as error:
        raise UsageError(str(error)) from None
