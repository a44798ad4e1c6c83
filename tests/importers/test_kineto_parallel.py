"""Batches decoded by helper processes: the same activities, names and errors as one reader's."""

import pytest
from kineto_files import NAMES, OLD_RESNET, RANKS, activities_of, encoded, others_activities_of, others_raw_of, raw_of
from test_kineto import same_activities
from test_kineto_errors import kernel, trace

from overlapviz.importers import kineto, kineto_parallel
from overlapviz.importers.kineto import KinetoFormatError, read_kineto
from overlapviz.importers.kineto_parallel import helper_count


@pytest.fixture
def three_cores(monkeypatch):
    """Two helpers beside the reading process, whatever this machine has; the counts started, in a list."""
    monkeypatch.setattr(kineto_parallel, "usable_cores", lambda: 3)
    monkeypatch.setattr(kineto_parallel, "_others_running", lambda: 0)
    started = []

    def counted(size, min_bytes):
        started.append(helper_count(size, min_bytes))
        return started[-1]

    monkeypatch.setattr(kineto, "helper_count", counted)
    return started


def read_in_parallel(raw, source, batch_events, monkeypatch):
    monkeypatch.setattr(kineto, "BATCH_EVENTS", batch_events)
    return read_kineto(raw, source, parallel_min_bytes=0)


@pytest.mark.parametrize("name", NAMES)
def test_helpers_read_a_trace_as_one_reader(name, three_cores, monkeypatch):
    parallel = read_in_parallel(raw_of(name), name, 100, monkeypatch)  # names, rows and flows cross runs
    assert three_cores == [2]
    assert same_activities(parallel, activities_of(name))


def test_helpers_read_other_projects_traces_as_one_reader(three_cores, monkeypatch):
    for name in (*RANKS, OLD_RESNET):  # several processes; PyTorch 1.9's texts for threads
        parallel = read_in_parallel(others_raw_of(name), name, 500, monkeypatch)
        assert same_activities(parallel, others_activities_of(name))


@pytest.mark.parametrize(
    "bad",
    [
        {7: kernel(dur=-1)},  # found building a helper's rows
        {7: kernel(args={"stream": 2**63})},  # found decoding a helper's batch
        {8: kernel(ts=-1), 3: kernel(args={"device": True})},  # the reading process's is first
        {11: kernel(ts=-1), 7: kernel(args={"device": True})},  # both helpers': the first helper's is first
        {10: kernel(cat="gpu_memcpy", args={"bytes": -5}), 9: kernel(args={"stream": "x"})},
    ],
)
def test_the_first_bad_event_in_the_file_is_reported(bad, three_cores, monkeypatch):
    events = [kernel(name=f"k{number % 3}") for number in range(12)]
    for number, event in bad.items():
        events[number] = event
    raw = trace(*events)
    monkeypatch.setattr(kineto, "BATCH_EVENTS", 2)  # six batches, two to each of three runs
    with pytest.raises(KinetoFormatError) as serial:
        read_kineto(raw, "bad.json")
    with pytest.raises(KinetoFormatError) as parallel:
        read_in_parallel(raw, "bad.json", 2, monkeypatch)
    assert three_cores == [0, 2]  # none for the serial reader, two helpers for the second
    assert str(parallel.value) == str(serial.value)


def test_a_helper_that_dies_leaves_its_run_to_the_reading_process(three_cores, monkeypatch):
    send = kineto_parallel.Helpers.send

    def killed_first(self, *args):
        for process, _ in self.links:
            process.kill()
            process.join()
        send(self, *args)

    monkeypatch.setattr(kineto_parallel.Helpers, "send", killed_first)
    name = NAMES[0]
    assert same_activities(read_in_parallel(raw_of(name), name, 100, monkeypatch), activities_of(name))


def test_one_core_or_a_small_file_starts_no_helper(monkeypatch):
    monkeypatch.setattr(kineto_parallel, "_others_running", lambda: 0)
    monkeypatch.setattr(kineto_parallel, "usable_cores", lambda: 2)
    assert helper_count(300 * 2**20) == 1
    assert helper_count(100 * 2**20) == 0  # below PARALLEL_MIN_BYTES its start costs more than it saves
    assert helper_count(10, min_bytes=0) == 1
    monkeypatch.setattr(kineto_parallel, "usable_cores", lambda: 1)
    assert helper_count(300 * 2**20) == 0
    assert helper_count(10, min_bytes=0) == 0
    assert len(read_kineto(encoded({"schemaVersion": 1, "traceEvents": [kernel()]}), "one.json",
                           parallel_min_bytes=0)) == 1  # fmt: skip


def test_no_helper_where_memory_would_not_hold_the_text(monkeypatch):
    monkeypatch.setattr(kineto_parallel, "_others_running", lambda: 0)
    monkeypatch.setattr(kineto_parallel, "usable_cores", lambda: 4)
    monkeypatch.setattr(kineto_parallel, "_available_memory", lambda: 2**20)
    assert helper_count(2**21, min_bytes=0) == 0


def test_helpers_only_for_the_cores_others_leave_idle(monkeypatch):
    monkeypatch.setattr(kineto_parallel, "usable_cores", lambda: 4)
    monkeypatch.setattr(kineto_parallel, "_available_memory", lambda: 2**62)
    for others, helpers in ((0, 3), (2, 1), (3, 0), (9, 0)):
        monkeypatch.setattr(kineto_parallel, "_others_running", lambda others=others: others)
        assert helper_count(2**40, min_bytes=0) == helpers
    assert kineto_parallel._others_running() >= 0
