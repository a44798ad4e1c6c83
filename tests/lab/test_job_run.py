"""What a worker does with one job: run --json's report and the Chrome trace, or a one-line reason."""

import pytest
from fake_backend import FakeBackend

from overlapviz.core.config import PipelineConfig
from overlapviz.core.files.trace_export import chrome_dict
from overlapviz.core.run_errors import BackendError
from overlapviz.lab.job import Job, JobFailed
from overlapviz.lab.job_run import one_line, run_payload
from overlapviz.run_report import json_run
from overlapviz.session import run_on


class Failing(FakeBackend):
    def __init__(self, error):
        super().__init__()
        self.error = error

    def run(self, config, device=None, cancel=None):
        raise self.error


def _without_run_time(report):
    return {key: value for key, value in report.items() if key != "wall_s"}


def test_a_job_answers_json_run_and_chrome_dict_of_its_run():
    config = PipelineConfig(chunks=3)
    report, trace = run_payload(FakeBackend(), Job(config, "fake-old").payload())
    local = run_on(FakeBackend(), config, "fake-old")
    assert _without_run_time(report) == _without_run_time(json_run(config, local))
    assert trace == chrome_dict(local.trace)


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (BackendError("out of memory on device 0"), "out of memory on device 0"),
        (MemoryError(), "ran out of memory"),
        (ZeroDivisionError("division by zero"), "the run failed: ZeroDivisionError: division by zero"),
    ],
)
def test_a_failed_run_is_job_failed_with_its_reason(error, reason):
    with pytest.raises(JobFailed, match=reason):
        run_payload(Failing(error), Job(PipelineConfig(), "fake-gpu").payload())


def test_a_reason_is_one_line_and_cut_when_long():
    assert one_line("a\nb   c") == "a b c"
    assert len(one_line("x" * 1000)) == 300
