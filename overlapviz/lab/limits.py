"""The lab server's limits: what one request may carry, and what one client may ask for at once.

Each client (a learner's laptop) has a share: at most `Limits.max_queued` jobs waiting or
running, and runs at `Limits.rate_per_s` on average with bursts up to `Limits.burst` (a
token bucket). Over its share it is told to retry later (429 with Retry-After), so one busy
laptop cannot crowd out the class. Failed credentials from one address are counted too.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from overlapviz.core.i18n import _

MAX_BODY_BYTES = 64 * 1024  # a job is a few settings: a larger body is not one


@dataclass(frozen=True, slots=True)
class Limits:
    """Per-request and per-client limits (docs/lab.md lists them)."""

    max_body_bytes: int = MAX_BODY_BYTES
    max_queued: int = 4  # a client's jobs waiting or running
    rate_per_s: float = 2.0  # a client's jobs per second, on average
    burst: int = 10  # jobs a client may send at once before the rate applies
    run_limit_s: float = 60.0  # one run's time on its device; over it the run is stopped
    body_limit_s: float = 30.0  # time to send a request's body; a stalled upload is dropped
    # wrong credentials from one address per minute before it must wait: a class behind one
    # router shares an address, so room for many typos; a join code takes ~10^11 guesses
    failed_logins: int = 100


class OverShare(Exception):
    """A client asked for more than its share; `retry_after_s` says when to ask again."""

    def __init__(self, reason: str, retry_after_s: float) -> None:
        super().__init__(reason)
        self.retry_after_s = retry_after_s

    @property
    def retry_after(self) -> str:
        """The Retry-After header's value: whole seconds, at least 1."""
        return str(max(1, math.ceil(self.retry_after_s)))


class _Bucket:
    def __init__(self, capacity: float, now: float) -> None:
        self.tokens = capacity
        self.at = now


class ClientShares:
    """Each client's jobs in flight and its rate (see the module's docstring)."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._clock = clock
        self._in_flight: dict[str, int] = {}
        self._buckets: dict[str, _Bucket] = {}
        self._seen: dict[str, float] = {}

    def admit(self, client: str) -> None:
        """Count a new job of `client`'s in; `release` it when answered.

        Raises
        ------
        OverShare
            The client has `max_queued` jobs in flight, or is over its rate.
        """
        now = self._clock()
        self._seen[client] = now
        if self._in_flight.get(client, 0) >= self.limits.max_queued:
            message = _("you have {count} runs waiting already; wait for one to finish")
            raise OverShare(message.format(count=self.limits.max_queued), 1.0)
        self._take_token(client, now)
        self._in_flight[client] = self._in_flight.get(client, 0) + 1

    def _take_token(self, client: str, now: float) -> None:
        limits = self.limits
        bucket = self._buckets.setdefault(client, _Bucket(limits.burst, now))
        bucket.tokens = min(limits.burst, bucket.tokens + (now - bucket.at) * limits.rate_per_s)
        bucket.at = now
        if bucket.tokens < 1:
            wait = (1 - bucket.tokens) / limits.rate_per_s
            message = _("too many runs; at most {rate} a second (bursts of {burst})")
            raise OverShare(message.format(rate=f"{limits.rate_per_s:g}", burst=limits.burst), wait)
        bucket.tokens -= 1

    def release(self, client: str) -> None:
        """A job of `client`'s was answered."""
        left = self._in_flight.get(client, 0) - 1
        if left > 0:
            self._in_flight[client] = left
        else:
            self._in_flight.pop(client, None)

    def in_flight(self, client: str) -> int:
        """`client`'s jobs waiting or running."""
        return self._in_flight.get(client, 0)

    def seen(self, client: str) -> None:
        """Note that `client` asked something (a status, say)."""
        self._seen[client] = self._clock()

    def active_clients(self, within_s: float = 300.0) -> int:
        """Clients that asked something in the last `within_s` seconds (and forget the others)."""
        since = self._clock() - within_s
        self._seen = {client: at for client, at in self._seen.items() if at >= since}
        self._buckets = {client: b for client, b in self._buckets.items() if client in self._seen}
        return len(self._seen)


class FailedLogins:
    """Wrong credentials per address in the last minute; over the limit, the address must wait."""

    WINDOW_S = 60.0

    def __init__(self, limit: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self._clock = clock
        self._failures: dict[str, list[float]] = {}

    def check(self, address: str) -> None:
        """Raise `OverShare` when `address` failed too often lately."""
        recent = self._recent(address)
        if len(recent) >= self.limit:
            wait = recent[0] + self.WINDOW_S - self._clock()
            raise OverShare(_("too many wrong credentials from your address; wait a minute"), wait)

    def failed(self, address: str) -> None:
        """Count a wrong credential from `address`."""
        self._recent(address).append(self._clock())

    def _recent(self, address: str) -> list[float]:
        since = self._clock() - self.WINDOW_S
        recent = [at for at in self._failures.get(address, []) if at >= since]
        self._failures[address] = recent
        return recent
