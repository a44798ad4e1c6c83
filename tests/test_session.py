import json
import subprocess
import sys
from unittest.mock import MagicMock

import pytest
from fake_backend import FakeBackend

from overlapviz import session as session_module
from overlapviz.backends import registry
from overlapviz.backends.base import Backend, DeviceInfo
from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.cancel import CancelToken
from overlapviz.core.config import ConfigError, HostMemory, PipelineConfig
from overlapviz.core.files.trace_export import export_chrome
from overlapviz.core.files.trace_format import TraceFormatError
from overlapviz.core.findings import find_findings
from overlapviz.core.run_errors import BackendError, RunCancelled
from overlapviz.session import (
    RunResult,
    Session,
    UnknownDeviceError,
    analyse,
    find_backend,
    run_pipeline,
)


@pytest.fixture
def with_gpu(backends):
    """Both backends usable: a fake real GPU first, as `auto` prefers it."""
    backends["cupy"] = FakeBackend("cupy", devices=("0",), simulated=False)
    return backends


def test_run_pipeline_runs_backend_and_analyses(backends):
    config = PipelineConfig(chunks=4, streams=2)
    cancel = CancelToken()
    result = run_pipeline(config, "sim", "fake-old", cancel)
    assert backends["sim"].calls == [(config, "fake-old", cancel)]
    assert result.trace.meta.device == "fake-old"
    assert result.metrics == compute_metrics(result.trace)
    assert result.findings == find_findings(result.trace, result.metrics)
    assert result.metrics.makespan_ns == 6000  # 4 chunks, 3 stages of 1 us, pipelined


def test_wall_time_is_the_backend_run(backends, monkeypatch):
    clock = iter([10.0, 12.5])
    monkeypatch.setattr(session_module.time, "perf_counter", lambda: next(clock))
    assert run_pipeline(PipelineConfig(), "sim").wall_s == 2.5


def test_works_with_any_backend_object(monkeypatch):
    trace = FakeBackend().run(PipelineConfig(chunks=2))
    mock = MagicMock(spec=Backend)
    mock.name = "mock"
    mock.run.return_value = trace
    monkeypatch.setattr(registry, "resolve_backend", lambda name: mock)
    result = run_pipeline(PipelineConfig(chunks=2), "mock")
    mock.run.assert_called_once_with(PipelineConfig(chunks=2), None, None)
    assert result.trace is trace


def test_auto_takes_the_model_when_no_gpu(backends):
    assert find_backend("auto") is backends["sim"]


def test_auto_prefers_the_gpu(with_gpu):
    assert find_backend("auto") is with_gpu["cupy"]


def test_auto_with_a_model_device_finds_the_model_on_a_gpu_machine(with_gpu):
    assert find_backend("auto", "fake-old") is with_gpu["sim"]
    assert find_backend("auto", "0") is with_gpu["cupy"]


def test_auto_follows_the_environment_variable(with_gpu, monkeypatch):
    monkeypatch.setenv(registry.BACKEND_ENV, "sim")
    assert find_backend("auto") is with_gpu["sim"]
    with pytest.raises(UnknownDeviceError, match="for the sim backend"):
        find_backend("auto", "0")


def test_unknown_device_lists_the_devices(with_gpu):
    with pytest.raises(UnknownDeviceError) as caught:
        find_backend("auto", "gtx480")
    assert str(caught.value) == "unknown device 'gtx480' for any usable backend; choose one of: 0, fake-gpu, fake-old"
    with pytest.raises(UnknownDeviceError, match=r"'0' for the sim backend; choose one of: fake-gpu, fake-old"):
        run_pipeline(PipelineConfig(), "sim", "0")
    assert with_gpu["sim"].calls == []


def test_unusable_backend_is_a_backend_error(backends):
    with pytest.raises(BackendError, match="the cupy backend is not here"):
        run_pipeline(PipelineConfig(), "cupy")


def test_cancelled_run_raises(backends):
    token = CancelToken()
    token.cancel()
    with pytest.raises(RunCancelled):
        run_pipeline(PipelineConfig(), "sim", cancel=token)


def test_analyse_a_loaded_trace_has_no_wall_time():
    trace = FakeBackend().run(PipelineConfig(chunks=2))
    result = analyse(trace)
    assert result == RunResult(trace, compute_metrics(trace), find_findings(trace), 0.0)


# --- Session ---------------------------------------------------------------------------


def test_session_defaults():
    s = Session()
    assert (s.config, s.backend, s.device, s.last) == (PipelineConfig(), "auto", None, None)


def test_session_update_validates_and_keeps_old_on_error():
    s = Session()
    assert s.update(memory="pageable", chunks=8).memory is HostMemory.PAGEABLE
    with pytest.raises(ConfigError, match="chunks"):
        s.update(chunks=0)
    assert s.config == PipelineConfig(memory=HostMemory.PAGEABLE, chunks=8)


def test_session_run_keeps_last_result(backends):
    s = Session(config=PipelineConfig(chunks=2), backend="sim", device="fake-old")
    result = s.run()
    assert s.last is result
    assert backends["sim"].calls[-1][:2] == (PipelineConfig(chunks=2), "fake-old")


def test_session_failed_run_keeps_previous_result(backends):
    s = Session(backend="sim")
    first = s.run()
    s.device = "missing"
    with pytest.raises(UnknownDeviceError):
        s.run()
    assert s.last is first


def test_session_open_trace(tmp_path):
    trace = FakeBackend().run(PipelineConfig(chunks=2))
    export_chrome(trace, tmp_path / "t.json")
    s = Session()
    result = s.open_trace(tmp_path / "t.json")
    assert s.last is result
    assert result.metrics == compute_metrics(trace)
    (tmp_path / "bad.json").write_text(json.dumps({"traceEvents": []}))
    with pytest.raises(TraceFormatError):
        s.open_trace(tmp_path / "bad.json")
    assert s.last is result


def test_device_info_is_enough_for_a_backend():  # the fake keeps to the protocol it stands in for
    assert isinstance(FakeBackend(), Backend)
    assert all(isinstance(d, DeviceInfo) for d in FakeBackend().devices())


def test_session_imports_no_qt():
    code = (
        "import sys, overlapviz.session, overlapviz.commands.main;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'superqt', 'cupy')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
