"""The collector, the claim before a run and the check after it, over a fake CUPTI (no GPU).

The fake plays the other client: it holds the subscription, takes the callbacks, or turns
on kinds of its own, as torch.profiler and Nsight Systems do in the same process.
"""

import pytest

from overlapviz.backends.cupy import cupti_session, cupti_timing
from overlapviz.backends.cupy.cupti_records import CuptiCopyKind
from overlapviz.backends.cupy.cupti_session import CuptiCollector, CuptiTaken, CuptiUnavailable, shared_collector
from overlapviz.backends.cupy.cupti_timing import CuptiShared, claim, collect_trace
from overlapviz.core.config import PipelineConfig
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import OpKind
from tests.backends.cupy.fake_cupti import ActivityKind, Result, activity, cuptiError, install
from tests.backends.cupy.fakes import BASE, fake_records, planned_ops

MIB = 1 << 20
CONFIG = PipelineConfig(size_bytes=8 * MIB, chunks=4, streams=2)
META = TraceMeta(backend="cupy", device_facts={"copy_engines": 3})


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(cupti_timing.time, "sleep", lambda _: None)
    return install(monkeypatch)


def probe(fake):
    start = fake.get_timestamp()
    return activity(ActivityKind.MEMCPY, start=start, end=start + 5, correlation_id=start, stream_id=13,
                    copy_kind=CuptiCopyKind.HTOD, bytes=cupti_timing.PROBE_BYTES, src_kind=2, dst_kind=3)


class Toucher:
    """The runner's touch: one probe copy on the GPU (seen by CUPTI if its kind is enabled)."""

    def __init__(self, fake):
        self.fake = fake
        self.calls = 0

    def __call__(self):
        self.calls += 1
        self.fake.issue(probe(self.fake))


def activities(apis, devices):
    out = []
    for api in apis:
        kind = ActivityKind.RUNTIME if api.runtime else ActivityKind.DRIVER
        out.append(activity(kind, cbid=1, start=api.start_ns, end=api.end_ns, correlation_id=api.correlation_id,
                            thread_id=api.thread_id))
    for d in devices:
        if d.kind is OpKind.KERNEL:
            out.append(activity(ActivityKind.CONCURRENT_KERNEL, start=d.start_ns, end=d.end_ns,
                                correlation_id=d.correlation_id, stream_id=d.stream_id, name=d.name))
        else:
            copy_kind = CuptiCopyKind.HTOD if d.kind is OpKind.H2D else CuptiCopyKind.DTOH
            out.append(activity(ActivityKind.MEMCPY, start=d.start_ns, end=d.end_ns, correlation_id=d.correlation_id,
                                stream_id=d.stream_id, copy_kind=copy_kind, bytes=d.nbytes, src_kind=d.src_kind,
                                dst_kind=d.dst_kind))
    return out


def the_run(fake):
    """Issue one pipeline's records as the GPU would; returns its plan."""
    plan = planned_ops(CONFIG)
    fake.issue(*activities(*fake_records(plan, chunk_bytes=CONFIG.chunk_bytes)))
    return plan


# --- the collector -------------------------------------------------------------------------


def test_a_collector_enables_only_its_kinds_and_registers_its_callbacks(fake):
    CuptiCollector()
    wanted = {ActivityKind.CONCURRENT_KERNEL, ActivityKind.MEMCPY, ActivityKind.RUNTIME, ActivityKind.DRIVER}
    assert fake.enabled == {int(k) for k in wanted} and fake.callbacks[0] == "ours"
    assert fake.subscribers == 0  # the probe subscription was let go at once


def test_no_collector_while_another_client_holds_the_subscription_and_one_once_it_lets_go(fake):
    fake.take_subscription()
    with pytest.raises(CuptiTaken, match=r"another profiler or CUPTI client.*MULTIPLE_SUBSCRIBERS"):
        shared_collector()
    assert fake.registrations == 0 and fake.enabled == set()  # its callbacks were not taken
    fake.release_subscription()
    assert isinstance(shared_collector(), CuptiCollector)


def test_any_other_failure_is_remembered(fake, monkeypatch):
    def refuse(*_):
        raise cuptiError(Result.ERROR_NOT_INITIALIZED)

    monkeypatch.setattr(fake, "activity_register_callbacks", refuse, raising=False)
    for _ in range(2):
        with pytest.raises(CuptiUnavailable, match=r"could not be enabled.*ERROR_NOT_INITIALIZED"):
            shared_collector()
    assert cupti_session._failure is not None


def test_records_of_kinds_we_never_enabled_are_counted_not_kept(fake):
    collector = CuptiCollector()
    fake.enable_theirs(ActivityKind.OVERHEAD)
    fake.issue(activity(ActivityKind.OVERHEAD), activity(ActivityKind.OVERHEAD), probe(fake))
    collector.flush()
    delivery = collector.take()
    assert delivery.foreign == {"OVERHEAD": 2} and len(delivery.devices) == 1
    assert collector.take().foreign == {}  # handed over once


# --- before the run ------------------------------------------------------------------------


def test_claim_succeeds_when_the_probe_comes_back_alone(fake):
    collector, touch = CuptiCollector(), Toucher(fake)
    assert claim(collector, touch) == cupti_timing.Claim("", rearmed=False)
    assert touch.calls == 2  # the probe, then the copy that takes CUPTI's next buffer request


def test_claim_fails_without_touching_anything_while_another_client_is_subscribed(fake):
    collector, touch = CuptiCollector(), Toucher(fake)
    fake.take_subscription()
    fake.steal_callbacks()
    checked = claim(collector, touch)
    assert "is attached to this process" in checked.reason and not checked.rearmed
    assert touch.calls == 0 and fake.callbacks[0] == "theirs"  # its callbacks stay its own


def test_a_client_that_attaches_after_our_last_run_gets_its_records_in_its_own_buffers(fake):
    collector, touch = CuptiCollector(), Toucher(fake)
    fake.issue(probe(fake))  # CUPTI now fills a buffer our callbacks asked for
    fake.take_subscription()  # a profiler starts: it subscribes and registers its callbacks
    fake.steal_callbacks()
    assert "is attached" in claim(collector, touch).reason
    plan = the_run(fake)  # the run, timed with events, that the profiler traces
    fake.activity_flush_all(1)  # the profiler stops
    assert len(fake.theirs) == len(activities(*fake_records(plan, chunk_bytes=CONFIG.chunk_bytes)))
    assert all(a.kind == ActivityKind.MEMCPY and a.bytes == cupti_timing.PROBE_BYTES for a in fake.lost)


def test_claim_fails_on_records_of_another_clients_kinds(fake):
    collector, touch = CuptiCollector(), Toucher(fake)
    fake.enable_theirs(ActivityKind.EXTERNAL_CORRELATION)
    fake.issue(activity(ActivityKind.EXTERNAL_CORRELATION))
    checked = claim(collector, touch)
    assert "EXTERNAL_CORRELATION x1" in checked.reason and not checked.rearmed


def test_claim_takes_the_callbacks_back_after_a_client_that_took_them_has_gone(fake):
    collector, touch = CuptiCollector(), Toucher(fake)
    fake.steal_callbacks()
    fake.enabled.clear()  # a profiler switches the kinds off when it stops
    registrations = fake.registrations
    assert claim(collector, touch) == cupti_timing.Claim("", rearmed=True)
    assert fake.registrations == registrations + 1 and fake.callbacks[0] == "ours"
    assert int(ActivityKind.MEMCPY) in fake.enabled


def test_claim_gives_up_when_the_probe_stays_lost(fake, monkeypatch):
    collector, touch = CuptiCollector(), Toucher(fake)
    fake.enabled.clear()
    monkeypatch.setattr(fake, "activity_enable", lambda kind: None, raising=False)  # enabling has no effect
    checked = claim(collector, touch)
    assert checked.reason.startswith("CUPTI did not hand back the probe copy") and checked.rearmed


# --- after the run -------------------------------------------------------------------------


def test_a_complete_run_becomes_a_cupti_trace(fake):
    collector = CuptiCollector()
    plan = the_run(fake)
    trace = collect_trace(collector, BASE - 1, plan, CONFIG, META, [])
    assert trace.meta.timing == "cupti" and int(trace.device_mask.sum()) == len(plan)


def test_records_taken_by_another_client_mean_no_cupti_trace(fake):
    collector = CuptiCollector()
    fake.steal_callbacks()
    plan = the_run(fake)
    with pytest.raises(CuptiShared, match=f"reported 0 copies and kernels for {len(plan)} issued ops"):
        collect_trace(collector, BASE - 1, plan, CONFIG, META, [])
    assert fake.theirs  # the records went to the other client


def test_another_clients_kind_during_the_run_stops_the_wait_at_once(fake, monkeypatch):
    collector = CuptiCollector()
    fake.enable_theirs(ActivityKind.MEMSET)
    plan = the_run(fake)
    fake.issue(activity(ActivityKind.MEMSET))
    flushes = []
    real_flush = fake.activity_flush_all
    monkeypatch.setattr(fake, "activity_flush_all", lambda flag: flushes.append(flag) or real_flush(flag),
                        raising=False)
    with pytest.raises(CuptiShared, match="MEMSET x1"):
        collect_trace(collector, BASE - 1, plan, CONFIG, META, [])
    assert len(flushes) == 1


def test_records_that_trail_the_first_flush_are_waited_for(fake, monkeypatch):
    collector = CuptiCollector()
    plan = planned_ops(CONFIG)
    records = activities(*fake_records(plan, chunk_bytes=CONFIG.chunk_bytes))
    fake.issue(*records[:-3])
    late = iter([[], records[-3:]])
    real_flush = fake.activity_flush_all

    def flush(flag):
        fake.issue(*next(late, []))
        real_flush(flag)

    monkeypatch.setattr(fake, "activity_flush_all", flush, raising=False)
    trace = collect_trace(collector, BASE - 1, plan, CONFIG, META, [])
    assert int(trace.device_mask.sum()) == len(plan)


def test_a_probe_copy_that_trails_the_first_flush_still_counts(fake, monkeypatch):
    collector = CuptiCollector()
    held = []

    def touch():
        held.append(probe(fake))  # CUPTI hands it over one flush late

    real_flush = fake.activity_flush_all

    def flush(flag):
        real_flush(flag)
        fake.issue(*held)
        held.clear()

    monkeypatch.setattr(fake, "activity_flush_all", flush, raising=False)
    assert claim(collector, touch) == cupti_timing.Claim("", rearmed=False)
