"""Runs through Redis: a front and two workers answer ``run --json``'s report, one job per device, clients in turn."""

import itertools
import threading
import time

import pytest

from overlapviz.core.config import PipelineConfig
from overlapviz.core.files.trace_export import chrome_dict
from overlapviz.session import find_backend, run_on
from tests.lab.lab_server import local_run_json
from tests.lab.redis_fixture import WORKER_DEVICES, started_lab


@pytest.fixture(scope="module")
def queue_lab():
    yield from started_lab("--max-queued", "8", "--rate", "100")


def _figures(report):
    # how long the backend took differs between any two runs; every figure of the run does not
    return {key: value for key, value in report.items() if key not in ("wall_s", "server", "trace")}


def test_status_lists_the_device_of_every_worker(queue_lab):
    devices = queue_lab.server.call("/v1/status").body["devices"]
    assert [device["key"] for device in devices] == sorted(queue_lab.key(device) for device in WORKER_DEVICES)
    assert {device["backend"] for device in devices} == {"sim"}
    names = {device["key"]: device["name"] for device in devices}
    assert names[queue_lab.key("tesla-c1060")] == queue_lab.workers["tesla-c1060"].printed["name"]


@pytest.mark.parametrize("device", WORKER_DEVICES)
def test_a_run_on_a_workers_device_answers_what_run_json_prints_there(queue_lab, device):
    answer = queue_lab.server.run({"chunks": 6, "streams": 3, "memory": "pageable"}, device=queue_lab.key(device))
    assert answer.status == 200, answer.body
    local = local_run_json(["--chunks", "6", "--streams", "3", "--memory", "pageable"], device)
    assert _figures(answer.body) == _figures(local)
    server = answer.server
    where = (server["device"], server["device_name"], server["backend"])
    assert where == (queue_lab.key(device), local["device_name"], "sim")
    assert f"pid {queue_lab.workers[device].process.pid}" in server["worker"]
    assert server["job_started_ns"] <= server["job_ended_ns"]


def test_the_trace_asked_for_comes_back_through_the_queue(queue_lab):
    answer = queue_lab.server.run({"chunks": 3, "streams": 2}, trace=True, device=queue_lab.key("h200"))
    assert answer.status == 200
    here = run_on(find_backend("sim"), PipelineConfig(chunks=3, streams=2), "h200")
    assert answer.body["trace"]["traceEvents"] == chrome_dict(here.trace)["traceEvents"]


def _ask_together(queue_lab, asks):
    """Send every (client, device, config) at once; the answers in the same order."""
    answers = [None] * len(asks)

    def ask(place, client, device, config):
        answers[place] = queue_lab.server.run(config, device=queue_lab.key(device), client=client)

    threads = [threading.Thread(target=ask, args=(place, *item)) for place, item in enumerate(asks)]
    for thread in threads:
        thread.start()
    return threads, answers


def _wait_queued(queue_lab, client, count, limit_s=20.0):
    deadline = time.monotonic() + limit_s
    while queue_lab.server.call("/v1/status", client=client).body["you"]["queued"] < count:
        assert time.monotonic() < deadline, f"{client} never had {count} jobs in"
        time.sleep(0.02)


def test_each_device_runs_one_job_at_a_time_both_are_used_and_clients_take_turns(queue_lab):
    # runs long enough (a few MB of trace each) for the six to be in before the one arrives
    slow = [("many", "h200", {"chunks": 1024 + place, "streams": 8}) for place in range(6)]
    other_device = [("elsewhere", "tesla-c1060", {"chunks": 256 + place}) for place in range(3)]
    threads, answers = _ask_together(queue_lab, slow + other_device)
    _wait_queued(queue_lab, "many", 5)
    late_threads, late = _ask_together(queue_lab, [("one", "h200", {"chunks": 700})])
    for thread in threads + late_threads:
        thread.join()
    every = answers + late
    assert [answer.status for answer in every] == [200] * len(every)
    by_device = {}
    for answer in every:
        by_device.setdefault(answer.server["device"], []).append(
            (answer.server["job_started_ns"], answer.server["job_ended_ns"]))
    assert set(by_device) == {queue_lab.key(device) for device in WORKER_DEVICES}
    for runs in by_device.values():
        runs.sort()
        assert all(ended <= next_started for (_, ended), (next_started, _) in itertools.pairwise(runs))
    one_started = late[0].server["job_started_ns"]
    before_one = sum(answer.server["job_started_ns"] < one_started for answer in answers[: len(slow)])
    assert before_one <= 2, f"the client with one job waited behind {before_one} of the other's six"
