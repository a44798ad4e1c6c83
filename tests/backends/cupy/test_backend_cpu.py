import subprocess
import sys
from types import SimpleNamespace

import pytest

from overlapviz.backends.base import Backend
from overlapviz.backends.cupy import CupyBackend, create_backend
from overlapviz.backends.cupy.backend import TIMING_ENV
from overlapviz.backends.cupy.nvtx_ranges import COLOURS, NvtxRanges
from overlapviz.core.config import HostMemory, PipelineConfig
from overlapviz.core.run_errors import BackendError
from overlapviz.core.trace.spans import OpKind
from overlapviz.view.palette import KIND_COLOURS, SpanStyle
from tests.backends.cupy.fakes import planned_ops


def test_importing_the_backend_loads_no_cuda_package():
    code = (
        "import sys, overlapviz.backends.cupy as b; b.create_backend();"
        "print(sorted(m for m in ('cupy', 'cupti', 'nvtx') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_create_backend_is_a_backend():
    backend = create_backend()
    assert isinstance(backend, Backend) and backend.name == "cupy"


def test_timing_choice_from_argument_and_environment(monkeypatch):
    monkeypatch.delenv(TIMING_ENV, raising=False)
    assert CupyBackend().timing_choice == "auto"
    assert CupyBackend(timing="events").timing_choice == "events"
    monkeypatch.setenv(TIMING_ENV, "cupti")
    assert CupyBackend().timing_choice == "cupti"


def test_unknown_timing_is_named(monkeypatch):
    monkeypatch.setenv(TIMING_ENV, "stopwatch")
    with pytest.raises(BackendError, match="timing 'stopwatch' is not one of: auto, cupti, events"):
        CupyBackend()


def test_events_timing_says_why_cupti_is_not_used():
    assert CupyBackend(timing="events").timing_status() == ("cuda-events", f"{TIMING_ENV}=events asks for CUDA events")


@pytest.mark.parametrize(("text", "index"), [(None, 0), ("", 0), ("cuda:1", 1), ("2", 2)])
def test_device_names(text, index):
    assert CupyBackend()._index(text) == index


def test_bad_device_name_is_an_error():
    with pytest.raises(BackendError, match="unknown CUDA device 'gpu0'"):
        CupyBackend()._index("gpu0")


def test_nvtx_without_the_package_is_silent(monkeypatch):
    monkeypatch.setitem(sys.modules, "nvtx", None)  # import nvtx now raises ImportError
    ranges = NvtxRanges()
    assert not ranges.enabled
    ranges.prepare("run", planned_ops(PipelineConfig()))
    ranges.push_run()
    ranges.push_op(0)
    ranges.pop()
    ranges.pop()


class FakeDomain:
    def __init__(self):
        self.calls = []

    def get_event_attributes(self, message, color):
        return (message, color)

    def push_range(self, attributes):
        self.calls.append(("push", attributes))

    def pop_range(self):
        self.calls.append(("pop",))


def test_nvtx_ranges_per_run_and_op_in_the_overlapviz_domain(monkeypatch):
    domain = FakeDomain()
    domains = []
    fake = SimpleNamespace(get_domain=lambda name: domains.append(name) or domain)
    monkeypatch.setitem(sys.modules, "nvtx", fake)
    ranges = NvtxRanges()
    assert ranges.enabled and domains == ["overlapviz"]
    ranges.prepare("run 1", planned_ops(PipelineConfig()))
    ranges.push_run()
    ranges.push_op(1)
    ranges.pop()
    ranges.pop()
    assert domain.calls == [
        ("push", ("run 1", 0xFF999999)), ("push", ("kernel c0 s0", 0xFF0072B2)), ("pop",), ("pop",),
    ]  # fmt: skip


@pytest.mark.parametrize("memory", list(HostMemory))
def test_nvtx_colours_cover_every_planned_kind_in_the_timeline_colours(memory):
    """Each op any host memory kind plans has a range colour, the one the app's timeline draws it in."""
    kinds = {op.kind for op in planned_ops(PipelineConfig(memory=memory))} | {OpKind.API}
    for kind in kinds:  # the styles carry the kinds' names
        assert COLOURS[kind] == 0xFF000000 | int(KIND_COLOURS[SpanStyle[kind.name]].lstrip("#"), 16), kind
