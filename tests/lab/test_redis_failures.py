"""Through Redis, a failing run, a killed worker, a foreign job and an unreachable Redis each end clearly."""

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from overlapviz.lab.redis_link import INSTALL_HINT
from tests.lab.lab_server import ROOT
from tests.lab.redis_fixture import QueueWorker, free_port, started_lab


@pytest.fixture(scope="module")
def queue_lab():
    yield from started_lab("--max-queued", "8", "--rate", "100")


def test_a_run_that_fails_answers_its_reason_and_the_worker_goes_on(queue_lab):
    key = queue_lab.key("h200")
    failed = queue_lab.server.run({"chunks": 4, "gpus": 2}, device=key)
    assert failed.status == 422
    assert "peer" in failed.body["error"] and "\n" not in failed.body["error"]
    assert queue_lab.server.run({"chunks": 4}, device=key).status == 200


def test_a_job_naming_any_other_function_is_refused_by_the_worker(queue_lab):
    from redis import Redis
    from rq import Queue
    from rq.serializers import JSONSerializer

    from overlapviz.lab.redis_link import queue_name

    with Redis.from_url(queue_lab.redis.url) as client:
        queue = Queue(queue_name(queue_lab.key("h200")), connection=client, serializer=JSONSerializer)
        foreign = queue.enqueue_call("os.getcwd", result_ttl=60, failure_ttl=60)
        result = foreign.latest_result(timeout=20)
    assert result is not None and result.return_value is None
    assert "runs only overlapviz.lab.redis_worker.run_queued_job, not 'os.getcwd'" in result.exc_string
    assert queue_lab.server.run({"chunks": 5}, device=queue_lab.key("h200")).status == 200


def test_a_worker_killed_mid_run_fails_that_run_and_loses_no_other_answer(queue_lab):
    doomed_key, other_key = queue_lab.key("h200"), queue_lab.key("tesla-c1060")
    answers = {}

    def ask(name, config, device):
        answers[name] = queue_lab.server.run(config, device=device, client=name)

    doomed = threading.Thread(target=ask, args=("doomed", {"chunks": 65536, "streams": 32}, doomed_key))
    doomed.start()
    deadline = time.monotonic() + 20
    while not any(d["busy"] for d in queue_lab.server.call("/v1/status").body["devices"] if d["key"] == doomed_key):
        assert time.monotonic() < deadline, "the long run never started"
        time.sleep(0.02)
    others = [threading.Thread(target=ask, args=(f"other-{n}", {"chunks": 40 + n}, other_key)) for n in range(3)]
    for thread in others:
        thread.start()
    os.kill(queue_lab.workers["h200"].process.pid, signal.SIGKILL)
    for thread in [doomed, *others]:
        thread.join()
    assert answers["doomed"].status == 422
    assert f"the worker of device {doomed_key} stopped" in answers["doomed"].body["error"]
    assert [answers[f"other-{n}"].status for n in range(3)] == [200] * 3
    assert [d["key"] for d in queue_lab.wait_for_devices(1)] == [other_key]
    queue_lab.workers["h200"].stop()
    queue_lab.workers["h200"] = QueueWorker.start(queue_lab.redis.url, "h200")  # takes the device over at once
    assert len(queue_lab.wait_for_devices(2)) == 2
    assert queue_lab.server.run({"chunks": 9}, device=doomed_key).status == 200


def test_a_second_worker_for_a_served_device_is_refused(queue_lab):
    command = [sys.executable, "-m", "overlapviz", "worker", "--queue", queue_lab.redis.url, "--device", "tesla-c1060"]
    done = subprocess.run([*command, "--backend", "sim"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"overlapviz: error: device {queue_lab.key('tesla-c1060')} already has a live worker"
        f" (host {os.uname().nodename}, pid {queue_lab.workers['tesla-c1060'].process.pid}): stop it first"
    ]


@pytest.mark.parametrize("command", [["worker", "--backend", "sim"], ["serve", "--backend", "sim", "--port", "0"]])
def test_redis_out_of_reach_is_one_line_and_exit_2(command):
    url = f"redis://127.0.0.1:{free_port()}/0"
    done = subprocess.run([sys.executable, "-m", "overlapviz", *command, "--queue", url], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"overlapviz: error: --queue {url}: Redis cannot be reached (")


def test_without_the_rq_package_both_commands_name_the_extra_to_install():
    script = (
        "import sys; sys.modules['rq'] = None\n"
        "from overlapviz.commands.main import main\n"
        "codes = [main(['worker', '--queue', 'redis://127.0.0.1:1/0']),"
        " main(['serve', '--backend', 'sim', '--port', '0', '--queue', 'redis://127.0.0.1:1/0'])]\n"
        "sys.exit(0 if codes == [2, 2] else 1)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 2 and all(INSTALL_HINT in line for line in lines), lines
