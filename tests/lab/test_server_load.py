"""Two hundred learners at once against the model: no job lost, clients taken in turn, one run per device at a time."""

import asyncio
import itertools
import threading
import time
from collections import defaultdict

import aiohttp

from tests.lab.lab_server import DEVICES, shared_lab_server  # noqa: F401 (the fixture lab_server)

CLIENTS = 200
JOBS_EACH = 2
TIME_BOUND_S = 60


def _job(client, number):
    """Forty settings shared by many clients, so most answers come from the cache or a shared run."""
    place = client + 7 * number
    return {"config": {"chunks": 30 + place % 40}, "device": DEVICES[place % 2]}


async def _learner(session, server, client):
    headers = {"Authorization": f"Bearer {server.token}", "X-Overlapviz-Client": f"learner-{client}"}
    jobs = [_job(client, number) for number in range(JOBS_EACH)]

    async def post(job):
        async with session.post(f"{server.url}/v1/runs", json=job, headers=headers) as response:
            return job, response.status, await response.json()

    return await asyncio.gather(*(post(job) for job in jobs))  # a learner's jobs wait together


async def _class(server):
    connector = aiohttp.TCPConnector(limit=100)
    timeout = aiohttp.ClientTimeout(total=TIME_BOUND_S)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        done = await asyncio.gather(*(_learner(session, server, client) for client in range(CLIENTS)))
    return [(f"learner-{client}", *answer) for client, answers in enumerate(done) for answer in answers]


def test_two_hundred_learners_get_every_answer_in_turn_with_one_run_per_device_at_a_time(lab_server):
    started = time.monotonic()
    answers = asyncio.run(_class(lab_server))
    assert time.monotonic() - started < TIME_BOUND_S
    assert len(answers) == CLIENTS * JOBS_EACH
    assert {status for _, _, status, _ in answers} == {200}
    for _, job, _, body in answers:  # each answer is its own job's
        assert body["server"]["device"] == job["device"]
        assert {key: body["config"][key] for key in job["config"]} == job["config"]
    runs = _uncached_runs(answers)
    _no_two_runs_overlap_on_a_device(runs)
    _clients_are_taken_in_turn(runs)
    assert lab_server.call("/v1/status").status == 200


def _uncached_runs(answers):
    runs = defaultdict(list)
    for client, _, _, body in answers:
        server = body["server"]
        if not server["cached"]:
            enqueued = server["job_started_ns"] - round(server["queued_ms"] * 1e6)
            runs[server["device"]].append((server["job_started_ns"], server["job_ended_ns"], enqueued, client))
    assert runs, "every answer came from the cache: nothing ran"
    return {device: sorted(found) for device, found in runs.items()}


def _no_two_runs_overlap_on_a_device(runs):
    for device, found in runs.items():
        for (_, ended, _, _), (next_started, _, _, _) in itertools.pairwise(found):
            assert ended <= next_started, f"two runs overlap on {device}"


def _clients_are_taken_in_turn(runs):
    """While a job waits, no other client gets more of its device than one run, plus one per run of the waiter's own."""
    for found in runs.values():
        for started, _, enqueued, client in found:
            waited_through = [other for begun, _, _, other in found if enqueued < begun < started]
            own = waited_through.count(client)
            for other in set(waited_through) - {client}:
                assert waited_through.count(other) <= own + 1, f"{other} ran ahead of {client} more than its turn"


def test_a_learner_who_queued_many_runs_does_not_keep_a_newcomer_waiting(lab_server):
    device = "tesla-c1060"
    answers = {}

    def ask(client, iters):
        answers[(client, iters)] = lab_server.run({"chunks": 400, "iters": iters}, device=device, client=client)

    hog = [threading.Thread(target=ask, args=("hog", 3000 + n)) for n in range(4)]
    for thread in hog:
        thread.start()
    deadline = time.monotonic() + 20
    while lab_server.call("/v1/status", client="hog").body["you"]["position"] == 0:  # wait until hog's jobs queue
        assert time.monotonic() < deadline, "the hog's jobs never waited"
        time.sleep(0.005)
    ask("newcomer", 2999)
    for thread in hog:
        thread.join()
    starts = sorted((answer.server["job_started_ns"], client) for (client, _), answer in answers.items())
    order = [client for _, client in starts]
    assert order.index("newcomer") <= 1, order  # at most the hog's run already going comes first
