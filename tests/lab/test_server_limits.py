"""A server with tight limits: a run over its time limit, wrong credentials again and again, the
instructor's runs to followers, the token file, and a clean stop."""

import json
import os
import stat
import threading
import time
import urllib.request

import pytest

from tests.lab.lab_server import LabServer

RUN_LIMIT_S = 1.0


@pytest.fixture(scope="module")
def strict(tmp_path_factory):
    token_file = tmp_path_factory.mktemp("lab") / "class-token"
    server = LabServer.start("--devices", "h200", "--run-limit", str(RUN_LIMIT_S), "--token-file", str(token_file))
    server.token_file = token_file
    yield server
    if server.process.poll() is None:
        server.stop()


def test_the_token_file_holds_the_printed_class_token_for_its_owner_only(strict):
    assert strict.token_file.read_text().strip() == strict.token
    assert stat.S_IMODE(os.stat(strict.token_file).st_mode) == 0o600
    assert strict.printed["instructor token"] not in strict.token_file.read_text()


def test_a_run_over_the_time_limit_is_422_and_the_device_serves_the_next_run(strict):
    slow = strict.run({"chunks": 65536, "size": "16GiB"}, client="slow", timeout=60)  # seconds on the model
    assert slow.status == 422
    assert "limit" in slow.body["error"]
    after = strict.run({"chunks": 4}, client="after")
    assert after.status == 200
    assert after.server["cached"] is False


def test_the_status_says_what_waits_and_who_asks(strict):
    status = strict.call("/v1/status", client="asker").body
    assert [device["key"] for device in status["devices"]] == ["h200"]
    assert status["devices"][0]["backend"] == "sim"
    assert status["you"] == {"client": "asker", "role": "class", "queued": 0, "position": 0}
    assert status["clients"] >= 1
    assert status["queued"] == 0


def test_the_instructors_runs_reach_every_follower_with_their_trace(strict):
    events = []
    follower = threading.Thread(target=_follow, args=(strict, events), daemon=True)
    follower.start()
    deadline = time.monotonic() + 20
    while strict.call("/v1/status").body["followers"] < 1:
        assert time.monotonic() < deadline, "the follower never connected"
        time.sleep(0.01)
    strict.run({"chunks": 6}, client="learner")  # a learner's run is not broadcast
    posted = strict.run({"chunks": 5}, token=strict.printed["instructor token"])
    follower.join(20)
    assert len(events) == 1
    assert events[0]["server"]["job_started_ns"] == posted.server["job_started_ns"]
    assert events[0]["config"] == posted.body["config"]
    assert events[0]["trace"]["traceEvents"]


def _follow(server, events):
    request = urllib.request.Request(server.url + "/v1/follow", headers={"Authorization": f"Bearer {server.token}"})
    with urllib.request.urlopen(request, timeout=30) as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        for line in stream:
            if line.startswith(b"data: "):
                events.append(json.loads(line[len(b"data: ") :]))
                return


def test_wrong_credentials_again_and_again_are_429_for_that_address(strict):
    statuses = []
    while len(statuses) < 150 and 429 not in statuses:
        statuses.append(strict.call("/v1/status", token=f"guess-{len(statuses)}").status)
    assert set(statuses[:-1]) == {401}
    assert statuses[-1] == 429
    assert len(statuses) > 50  # a class's typos behind one router do not lock it out
    refused = strict.call("/v1/status")  # from the same address, even the right token waits now
    assert refused.status == 429
    assert int(refused.headers["Retry-After"]) >= 1


def test_sigterm_stops_the_server_and_its_workers(strict):
    psutil = pytest.importorskip("psutil")
    workers = psutil.Process(strict.process.pid).children(recursive=True)
    assert workers, "no worker process"
    assert strict.stop() == 0
    assert not [worker for worker in workers if worker.is_running() and worker.status() != psutil.STATUS_ZOMBIE]
    assert "Traceback" not in strict.stderr()
