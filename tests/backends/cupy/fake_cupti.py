"""A stand-in for ``cupti-python``'s ``cupti.cupti`` module: what the collector calls, no GPU.

It keeps one set of buffer callbacks and one subscriber, as CUPTI before 13.5 does, so a
test can play another client: `take_subscription` holds the subscription, `steal_callbacks`
registers other callbacks (records then go there), `enable_theirs` turns on a kind of its
own. `issue` is the GPU doing something: a record of an enabled kind waits for the next
flush. As in CUPTI, records go into the buffer of the client whose callbacks asked for it,
and a flush hands that buffer to whoever holds the callbacks then: another client's
callbacks drop a buffer they did not ask for (`lost`), as torch.profiler does.
"""

from __future__ import annotations

import enum
import sys
from types import ModuleType, SimpleNamespace


class ActivityKind(enum.IntEnum):
    MEMCPY = 1
    MEMSET = 2
    KERNEL = 3
    DRIVER = 4
    RUNTIME = 5
    OVERHEAD = 17
    CONCURRENT_KERNEL = 10
    EXTERNAL_CORRELATION = 38


class Result(enum.IntEnum):
    SUCCESS = 0
    ERROR_NOT_INITIALIZED = 15
    ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED = 39


class CallbackDomain(enum.IntEnum):
    DRIVER_API = 1
    RUNTIME_API = 2


class cuptiError(Exception):  # noqa: N801 - the real module's spelling
    def __init__(self, status):
        super().__init__(f"CUPTI error {int(status)}")
        self.status = int(status)


class FakeCupti(ModuleType):
    """The module object: state plus the functions the collector uses."""

    ActivityKind = ActivityKind
    Result = Result
    CallbackDomain = CallbackDomain

    def __init__(self):
        super().__init__("cupti.cupti")
        self.enabled: set[int] = set()
        self.callbacks = None
        self.subscribers = 0
        self.other_subscribed = False
        self.registrations = 0
        self.clock = 1_000
        self.pending: list[SimpleNamespace] = []
        self.buffer_of: str | None = None  # whose callbacks asked for the buffer being filled
        self.theirs: list[SimpleNamespace] = []
        self.lost: list[SimpleNamespace] = []

    # --- the API ---
    def activity_register_callbacks(self, requested, completed):
        self.registrations += 1
        self.callbacks = ("ours", requested, completed)

    def activity_enable(self, kind):
        self.enabled.add(int(kind))

    def activity_disable(self, kind):
        self.enabled.discard(int(kind))

    def activity_flush_all(self, flag):
        pending, self.pending = self.pending, []
        owner, self.buffer_of = self.buffer_of, None
        if self.callbacks is None or not pending:
            return
        if self.callbacks[0] != owner:  # a buffer these callbacks never asked for
            self.lost += pending
        elif owner == "ours":
            self.callbacks[2](pending)
        else:
            self.theirs += pending

    def get_timestamp(self):
        self.clock += 1
        return self.clock

    def get_callback_name(self, domain, cbid):
        return f"api{cbid}"

    def subscribe(self, callback, userdata):
        if self.other_subscribed or self.subscribers:
            raise cuptiError(Result.ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
        self.subscribers += 1
        return 77

    def unsubscribe(self, handle):
        self.subscribers -= 1

    # --- playing another client ---
    def take_subscription(self):
        self.other_subscribed = True

    def release_subscription(self):
        self.other_subscribed = False

    def steal_callbacks(self):
        self.callbacks = ("theirs", None, None)

    def enable_theirs(self, kind):
        self.enabled.add(int(kind))

    def issue(self, *activities):
        """Records of what the GPU did; kept for the next flush when their kind is enabled."""
        recorded = [a for a in activities if a.kind in self.enabled]
        if recorded and self.buffer_of is None and self.callbacks is not None:
            self.buffer_of = self.callbacks[0]  # the first record makes CUPTI ask for a buffer
        self.pending += recorded


def activity(kind, **fields):
    """One fake activity record."""
    return SimpleNamespace(kind=int(kind), **fields)


def install(monkeypatch) -> FakeCupti:
    """Make ``from cupti import cupti`` give a fresh fake, and forget any shared collector."""
    from overlapviz.backends.cupy import cupti_session

    fake = FakeCupti()
    fake.cuptiError = cuptiError
    package = ModuleType("cupti")
    package.cupti = fake
    monkeypatch.setitem(sys.modules, "cupti", package)
    monkeypatch.setitem(sys.modules, "cupti.cupti", fake)
    monkeypatch.setattr(cupti_session, "_collector", None)
    monkeypatch.setattr(cupti_session, "_failure", None)
    return fake
