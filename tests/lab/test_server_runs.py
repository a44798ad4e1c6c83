"""A run through the lab server answers what ``overlapviz run --json`` prints, once per distinct setting."""

import json
import subprocess
import sys
import threading

from tests.lab.lab_server import ROOT, local_run_json, shared_lab_server  # noqa: F401 (the fixture lab_server)


def _without_run_time(report):
    # how long the backend took differs between any two runs; every figure of the run does not
    return {key: value for key, value in report.items() if key not in ("wall_s", "server", "trace")}


def test_a_run_answers_what_run_json_prints_for_the_same_settings_plus_where_it_ran(lab_server):
    answer = lab_server.run({"chunks": 6, "streams": 3, "memory": "pageable"}, device="tesla-c1060")
    assert answer.status == 200
    local = local_run_json(["--chunks", "6", "--streams", "3", "--memory", "pageable"], "tesla-c1060")
    assert _without_run_time(answer.body) == _without_run_time(local)
    server = answer.server
    assert (server["url"], server["device"], server["backend"]) == (lab_server.url, "tesla-c1060", "sim")
    assert server["device_name"] == local["device_name"]
    assert server["job_started_ns"] <= server["job_ended_ns"]
    assert "trace" not in answer.body


def test_without_a_device_the_run_takes_the_servers_first(lab_server):
    answer = lab_server.run({"chunks": 5})
    assert answer.server["device"] == "h200"
    assert _without_run_time(answer.body) == _without_run_time(local_run_json(["--chunks", "5"], "h200"))


def test_the_trace_asked_for_is_the_one_run_trace_writes(lab_server, tmp_path):
    answer = lab_server.run({"chunks": 3, "streams": 2}, trace=True)
    path = tmp_path / "local.json"
    command = [sys.executable, "-m", "overlapviz", "run", "--backend", "sim", "--device", "h200"]
    subprocess.run([*command, "--chunks", "3", "--streams", "2", "--trace", str(path)], cwd=ROOT, check=True)
    written = json.loads(path.read_text())
    assert answer.body["trace"]["traceEvents"] == written["traceEvents"]
    assert answer.body["trace"]["otherData"]["names"] == written["otherData"]["names"]


def test_the_same_settings_again_are_answered_from_the_cache_without_a_second_run(lab_server):
    first = lab_server.run({"chunks": 7, "iters": 900})
    again = lab_server.run({"iters": 900, "chunks": 7, "streams": 4})  # the same pipeline, written otherwise
    assert (first.server["cached"], again.server["cached"]) == (False, True)
    assert again.server["job_started_ns"] == first.server["job_started_ns"]
    assert _without_run_time(again.body) == _without_run_time(first.body)
    elsewhere = lab_server.run({"chunks": 7, "iters": 900}, device="tesla-c1060")
    assert elsewhere.server["cached"] is False  # another device is another run


def test_identical_requests_in_flight_share_one_run(lab_server):
    config = {"chunks": 512, "iters": 777}  # slow enough on the model for the requests to meet
    answers = [None] * 12

    def ask(place):
        answers[place] = lab_server.run(config, client=f"coalesce-{place}")

    threads = [threading.Thread(target=ask, args=(place,)) for place in range(len(answers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {answer.status for answer in answers} == {200}
    runs = {(a.server["job_started_ns"], a.server["job_ended_ns"]) for a in answers}
    assert len(runs) == 1
    assert sorted(a.server["cached"] for a in answers) == [False] + [True] * 11
