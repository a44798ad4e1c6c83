"""Windows, runs and traces for the tests of the teaching tools."""

from __future__ import annotations

import pytest

from overlapviz._qt.main_window import MainWindow
from overlapviz.app.run_targets import RunTarget, target_title
from overlapviz.backends.sim.backend import SimBackend
from overlapviz.core.config import PipelineConfig
from overlapviz.session import run_pipeline

REAL_GPU = RunTarget("cupy", "cuda:0", "NVIDIA H200 (real GPU, cupy)", False)
SIM_TARGETS = [RunTarget("sim", d.key, target_title(d.name, "sim", True), True) for d in SimBackend().devices()]
H200, C1060, ONE_ENGINE = (next(t for t in SIM_TARGETS if t.device == key)
                           for key in ("h200", "tesla-c1060", "h200-one-copy-engine"))


def model_run(config, backend, device, cancel):
    """Run on the model; a "real GPU" of the tests is the H200 model."""
    if backend != "sim":
        backend, device = "sim", "h200"
    return run_pipeline(config, backend, device, cancel)


@pytest.fixture(name="make_window")
def make_window_fixture(qtbot, settings):
    """`make_window(**kwargs)`: a shown window on the model, live off (import this to use it)."""

    def make(**kwargs):
        kwargs.setdefault("live", False)
        kwargs.setdefault("targets", SIM_TARGETS)
        kwargs.setdefault("run_function", model_run)
        window = MainWindow(settings, **kwargs)
        qtbot.addWidget(window)
        window.resize(1600, 1000)
        window.show()
        return window

    return make


def run_and_wait(qtbot, window, config=None):
    """Run `config` (default: the controls') and wait until it is on show."""
    if config is not None:
        window.model.set_config(config)
    before = window.shown()
    window.request_run()
    qtbot.waitUntil(lambda: window.shown() is not None and window.shown() is not before, timeout=10_000)
    return window.shown().result


def config_of(result):
    return PipelineConfig.from_dict(result.trace.meta.config)
