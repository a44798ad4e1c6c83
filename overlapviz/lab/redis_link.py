"""What the lab's front and its workers share on Redis: the connection, the names, the device registrations.

Each device has one RQ queue (`queue_name`) and one registration (`registration_key`): a
JSON `Registration` that its worker writes with a time to live and renews every
`HEARTBEAT_EVERY_S`, so a worker that dies drops out of the front's devices within
`HEARTBEAT_TTL_S`. Jobs and results travel as JSON (RQ's `JSONSerializer`), never pickled:
whoever can write to Redis could otherwise make a worker or the front unpickle code.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from overlapviz.core.i18n import _
from overlapviz.lab.job_run import one_line

if TYPE_CHECKING:
    from redis import Redis

PREFIX = "overlapviz-lab"
HEARTBEAT_TTL_S = 5
HEARTBEAT_EVERY_S = 1.0
CONNECT_LIMIT_S = 3.0
RUN_FUNCTION = "overlapviz.lab.redis_worker.run_queued_job"  # the one function a worker runs for a job
INSTALL_HINT = "pip install overlapviz[lab-queue]"
_KEY_CHARACTERS = re.compile(r"[^A-Za-z0-9_.-]")


class QueueError(ValueError):
    """The job queue cannot be used (no rq package, a bad URL, Redis out of reach); the one-line message says why."""


@dataclass(frozen=True, slots=True)
class Registration:
    """A live device as its worker announces it: the lab's key, its name and backend, and which worker serves it."""

    key: str
    name: str
    backend: str
    worker: str  # a token of the worker process: a new one means the device's worker restarted
    host: str
    pid: int

    def to_json(self) -> str:
        """The registration as the JSON stored in Redis."""
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: bytes | str) -> Registration | None:
        """The registration stored as `text`; None for anything else (a key written by hand, an older build)."""
        try:
            data = json.loads(text)
            return cls(**{name: data[name] for name in cls.__dataclass_fields__})
        except (ValueError, TypeError, KeyError):
            return None


def device_key(host: str, backend_device: str) -> str:
    """The lab's key of a device: the host's short name and the backend's key, in what a request may name."""
    short_host = host.split(".")[0] or "host"
    return _KEY_CHARACTERS.sub("-", f"{short_host}.{backend_device}")[:64]


def queue_name(key: str) -> str:
    """The RQ queue of the device `key`: its worker is the only one that takes from it."""
    return f"{PREFIX}:{key}"


def registration_key(key: str) -> str:
    """The Redis key holding the device `key`'s `Registration`."""
    return f"{PREFIX}:device:{key}"


def connect(url: str) -> Redis:
    """A client of the Redis at `url`, checked with a PING.

    Raises
    ------
    QueueError
        The rq or redis package is missing, the URL is not a Redis URL, or Redis does not answer.
    """
    redis_module = _queue_packages()
    shown = shown_url(url)
    try:
        client: Redis = redis_module.Redis.from_url(url, socket_connect_timeout=CONNECT_LIMIT_S)
    except ValueError as error:
        message = _("--queue {url}: not a Redis URL ({error}); e.g. redis://HOST:6379/0")
        raise QueueError(one_line(message.format(url=shown, error=error))) from None
    try:
        client.ping()
    except redis_module.RedisError as error:
        client.close()
        message = _("--queue {url}: Redis cannot be reached ({error})")
        raise QueueError(one_line(message.format(url=shown, error=error))) from None
    return client


def shown_url(url: str) -> str:
    """`url` as it may be printed: a password in it replaced by ``***``."""
    scheme, separator, rest = url.partition("://")
    credentials, at, place = rest.rpartition("@")
    if not separator or not at or ":" not in credentials:
        return url
    return f"{scheme}://{credentials.split(':', 1)[0]}:***@{place}"


def _queue_packages() -> Any:
    """The redis module, once rq is known to be importable too."""
    try:
        import redis
        import rq  # noqa: F401 (the front and the workers both need it; say so before connecting)
    except ImportError as error:
        message = _("--queue needs the rq and redis packages ({package} is missing): {install}")
        raise QueueError(message.format(package=error.name, install=INSTALL_HINT)) from None
    return redis


def live_registrations(client: Redis) -> list[Registration]:
    """Every device whose worker's heartbeat is fresh, by key."""
    keys = sorted(client.scan_iter(match=registration_key("*"), count=100))
    if not keys:
        return []
    found = (Registration.from_json(value) for value in client.mget(keys) if value is not None)
    return sorted((registration for registration in found if registration is not None), key=lambda r: r.key)
