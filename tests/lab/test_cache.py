"""The result cache: one run per distinct job, shared by the requests that meet it, bounded, failures not kept."""

import asyncio

import pytest

from overlapviz.core.config import PipelineConfig
from overlapviz.lab.cache import ResultCache
from overlapviz.lab.job import Job, JobFailed, JobResult


def _result(tag):
    return JobResult({"tag": tag}, {}, "h200", "model", "sim", 1.5, 10, 20)


class CountingRuns:
    def __init__(self, fail=False):
        self.count = 0
        self.fail = fail
        self.release = asyncio.Event()

    async def __call__(self):
        self.count += 1
        await self.release.wait()
        if self.fail:
            raise JobFailed("out of memory")
        return _result(self.count)


def test_requests_that_meet_a_run_under_way_share_it_and_later_ones_come_from_the_cache():
    async def scenario():
        cache, runs = ResultCache(), CountingRuns()
        waiting = [asyncio.ensure_future(cache.get_or_run("k", runs)) for _ in range(30)]
        await asyncio.sleep(0)
        runs.release.set()
        results = await asyncio.gather(*waiting)
        later = await cache.get_or_run("k", runs)
        return runs.count, results, later, cache

    count, results, later, cache = asyncio.run(scenario())
    assert count == 1
    assert [result.cached for result in results] == [False] + [True] * 29
    assert later.cached and later.queued_ms == 0 and later.report == {"tag": 1}
    assert (cache.runs, cache.hits, len(cache)) == (1, 30, 1)


def test_with_no_entries_every_request_is_a_run_of_its_own():
    async def scenario():
        cache, runs = ResultCache(entries=0), CountingRuns()
        waiting = [asyncio.ensure_future(cache.get_or_run("k", runs)) for _ in range(3)]
        await asyncio.sleep(0)
        runs.release.set()
        results = await asyncio.gather(*waiting)
        later = await cache.get_or_run("k", runs)
        return runs.count, results, later, cache

    count, results, later, cache = asyncio.run(scenario())
    assert count == 4
    assert not any(result.cached for result in [*results, later])
    assert (cache.runs, cache.hits, len(cache)) == (4, 0, 0)


def test_a_failed_run_fails_every_waiter_and_is_not_kept():
    async def scenario():
        cache, runs = ResultCache(), CountingRuns(fail=True)
        waiting = [asyncio.ensure_future(cache.get_or_run("k", runs)) for _ in range(3)]
        await asyncio.sleep(0)
        runs.release.set()
        outcomes = await asyncio.gather(*waiting, return_exceptions=True)
        runs.fail = False
        again = await cache.get_or_run("k", runs)
        return runs.count, outcomes, again

    count, outcomes, again = asyncio.run(scenario())
    assert all(isinstance(outcome, JobFailed) for outcome in outcomes)
    assert count == 2 and again.cached is False


def test_the_cache_forgets_the_least_recently_used_beyond_its_bound():
    async def scenario():
        cache = ResultCache(entries=2)
        runs = CountingRuns()
        runs.release.set()
        for key in ("a", "b", "a", "c"):  # "a" used again, so "b" is the oldest when "c" comes
            await cache.get_or_run(key, runs)
        kept_a = (await cache.get_or_run("a", runs)).cached
        kept_b = (await cache.get_or_run("b", runs)).cached
        return kept_a, kept_b, len(cache)

    assert asyncio.run(scenario()) == (True, False, 2)


def test_the_cache_key_is_the_pipeline_and_the_device_however_the_settings_were_written():
    one = Job(PipelineConfig(chunks=8), "h200")
    written_otherwise = Job(PipelineConfig(chunks=8, streams=PipelineConfig().streams), "h200", trace=True)
    assert one.cache_key() == written_otherwise.cache_key()
    assert one.cache_key() != Job(PipelineConfig(chunks=8), "tesla-c1060").cache_key()
    assert one.cache_key() != Job(PipelineConfig(chunks=9), "h200").cache_key()


@pytest.mark.parametrize("with_trace", [False, True])
def test_an_answer_is_the_report_with_where_and_when_it_ran(with_trace):
    answer = JobResult({"makespan_ms": 1.0}, {"traceEvents": []}, "h200", "model", "sim", 2.0, 10, 20).answer(
        "http://lab:1", with_trace
    )
    assert answer["makespan_ms"] == 1.0
    assert answer["server"] == {
        "url": "http://lab:1", "device": "h200", "device_name": "model", "backend": "sim",
        "queued_ms": 2.0, "job_started_ns": 10, "job_ended_ns": 20, "cached": False,
    }  # fmt: skip
    assert ("trace" in answer) is with_trace
