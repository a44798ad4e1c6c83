"""How many runs a second the lab server answers, and how long learners' runs wait for the device.

Starts the real server on the model (``overlapviz serve --backend sim``, one device, the
per-learner limits lifted so that they do not set the pace) and talks to it over loopback:

- cached: clients asking for settings already run, answered from the cache (jobs/s);
- uncached: clients asking for settings never run before, each a run on the device (jobs/s);
- the 95th-percentile wait for the device (the server's ``queued_ms``) when 30, then 200,
  learners each send one new setting at once.

Repeats until the timings agree (see `benchmarks.steady`) and writes
benchmarks/results/lab_throughput.json (or into ``--out``) with the machine and its load.

    python -m benchmarks.lab_throughput [--tiny] [--out DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

from benchmarks.machine import RESULTS, write_result
from benchmarks.steady import LoadWatch, add_options, all_steady, max_repeats, repeat_until_steady, verdict

ROOT = Path(__file__).resolve().parents[1]
FULL = {"clients": 30, "jobs": 600, "crowds": (30, 200)}
TINY = {"clients": 3, "jobs": 12, "crowds": (3, 10)}
UNLIMITED = ["--max-queued", "100000", "--rate", "100000"]
_fresh_iters = itertools.count(1000)  # each uncached job's settings differ from every earlier job's


MODEL = ("--backend", "sim", "--devices", "h200", *UNLIMITED)


def start_server(*flags: str) -> tuple[subprocess.Popen[str], str, str]:
    """The server process started with `flags` (default: the model, limits lifted), its URL and class token."""
    command = [sys.executable, "-m", "overlapviz", "serve", *(flags or MODEL), "--host", "127.0.0.1", "--port", "0"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    printed = {}
    for line in process.stdout:
        if line.strip() == "ready":
            break
        name, _, value = line.strip().partition(": ")
        printed[name] = value
    if "url" not in printed:
        process.kill()
        raise SystemExit("the lab server did not start")
    return process, printed["url"], printed["class token"]


class Class:
    """Learners as HTTP clients of one server."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.token = token

    async def post(self, session: aiohttp.ClientSession, client: int, config: dict[str, Any]) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {self.token}", "X-Overlapviz-Client": f"learner-{client}"}
        async with session.post(f"{self.url}/v1/runs", json={"config": config}, headers=headers) as response:
            if response.status != 200:
                raise SystemExit(f"the server answered {response.status}: {await response.text()}")
            server: dict[str, Any] = (await response.json())["server"]
            return server

    async def jobs_per_s(self, clients: int, jobs: int, fresh: bool) -> float:
        """Jobs a second when `clients` learners send `jobs` in all, new settings each time or one setting."""
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=clients)) as session:
            if not fresh:
                await self.post(session, 0, {"chunks": 8})  # in the cache before the clock starts

            async def learner(client: int) -> None:
                for _ in range(jobs // clients):
                    config = {"chunks": 8, "iters": next(_fresh_iters)} if fresh else {"chunks": 8}
                    await self.post(session, client, config)

            began = time.perf_counter()
            await asyncio.gather(*(learner(client) for client in range(clients)))
            return (jobs // clients) * clients / (time.perf_counter() - began)

    async def p95_wait_ms(self, clients: int) -> float:
        """The 95th-percentile wait for the device when `clients` learners each send a new setting at once."""
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=clients)) as session:
            answers = await asyncio.gather(*(
                self.post(session, client, {"chunks": 8, "iters": next(_fresh_iters)}) for client in range(clients)
            ))  # fmt: skip
        waits = sorted(answer["queued_ms"] for answer in answers if not answer["cached"])
        return statistics.quantiles(waits, n=20, method="inclusive")[-1] if len(waits) > 1 else waits[0]


def measure(lab: Class, size: dict[str, Any]) -> dict[str, float]:
    """One sample of every timing."""
    sample = {
        "cached_jobs_per_s": asyncio.run(lab.jobs_per_s(size["clients"], size["jobs"], fresh=False)),
        "uncached_jobs_per_s": asyncio.run(lab.jobs_per_s(size["clients"], size["jobs"] // 4, fresh=True)),
    }
    for crowd in size["crowds"]:
        sample[f"p95_wait_ms_{crowd}_clients"] = asyncio.run(lab.p95_wait_ms(crowd))
    return sample


def main() -> None:
    load = LoadWatch()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_options(parser, RESULTS)
    args = parser.parse_args()
    size = TINY if args.tiny else FULL
    process, url, token = start_server()
    try:
        lab = Class(url, token)
        measure(lab, TINY)  # warm the worker and the connections outside the timings
        found = repeat_until_steady(lambda: measure(lab, size), max_repeats=max_repeats(args, 5))
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(30)
    for name, steady in found.items():
        best, worst = min(steady.values), max(steady.values)
        print(f"{name:<28} median {steady.median:10.1f}   best {best:10.1f}   worst {worst:10.1f}")
    print(verdict(found))
    write_result("lab_throughput", {
        "what": "the lab server on the model, one device, over loopback; jobs/s and the 95th-percentile wait",
        "clients": size["clients"],
        "jobs": size["jobs"],
        **{name: steady.summary(2) for name, steady in found.items()},
        **all_steady(found),
    }, args.out, load=load)  # fmt: skip


if __name__ == "__main__":
    main()
