import pytest

from overlapviz.backends.cupy.failures import describe_error, releasing_on_error
from overlapviz.backends.cupy.output_check import OutputMismatch
from overlapviz.backends.cupy.ram_guard import PinRefused
from overlapviz.core.run_errors import BackendError, RunCancelled


class FakePool:
    def __init__(self):
        self.calls = []

    def release_all(self):
        self.calls.append("all")

    def release_new(self, before):
        self.calls.append(("new", before))


def test_cancel_frees_only_what_the_run_allocated():
    pool = FakePool()
    with pytest.raises(RunCancelled), releasing_on_error(pool, "running", held_before={1, 2}):
        raise RunCancelled("run cancelled")
    assert pool.calls == [("new", {1, 2})]


def test_refused_pin_frees_only_what_the_run_allocated():
    pool = FakePool()
    with pytest.raises(PinRefused), releasing_on_error(pool, "allocating", held_before={3}):
        raise PinRefused("refusing to pin")
    assert pool.calls == [("new", {3})]


def test_wrong_output_frees_everything_and_says_so():
    pool = FakePool()
    with pytest.raises(BackendError, match="output is wrong, so no timeline is shown: chunk 2"), \
            releasing_on_error(pool, "running", held_before={3}):
        raise OutputMismatch("chunk 2")
    assert pool.calls == ["all"]


def test_any_other_failure_becomes_a_backend_error_naming_the_stage():
    pool = FakePool()
    with pytest.raises(BackendError, match="CUDA error while allocating buffers: boom"), \
            releasing_on_error(pool, "allocating buffers"):
        raise RuntimeError("boom")
    assert pool.calls == ["all"]


def test_no_failure_frees_nothing():
    pool = FakePool()
    with releasing_on_error(pool, "running"):
        pass
    assert pool.calls == []


def test_out_of_memory_is_said_plainly():
    assert describe_error(RuntimeError("cudaErrorMemoryAllocation: out of memory")).startswith(
        "the GPU is out of memory"
    )
    assert describe_error(ValueError()) == "ValueError"
