"""The app's start: the first picture whatever live mode was remembered, and remembered settings that no longer fit."""

from pathlib import Path

from fakes import H200, SIM_TARGETS, DictSettings, ManualTimer, Messages, QueuedExecutor
from test_controller import model_run

from overlapviz.app import remembered
from overlapviz.app.controller import AppController
from overlapviz.app.model import AppModel, CompareAxis
from overlapviz.app.session_file import open_file
from overlapviz.core.config import PipelineConfig
from overlapviz.view.prepared import prepare_trace

SAVED_TRACE = Path(__file__).parents[1] / "data" / "overlapviz" / "sim-pageable-0.2.0.json.gz"


def _start(settings, messages=None):
    """A controller as the window builds one at start, on `settings`."""
    controller = AppController(
        AppModel(), QueuedExecutor(), messages or Messages(), ManualTimer(), run_function=model_run,
        targets=SIM_TARGETS, default=H200, lessons=[], settings=settings,
    )  # fmt: skip
    controller.executor = controller.runs._executor
    return controller


def test_after_a_session_that_opened_a_file_the_next_start_runs_once():
    settings = DictSettings()
    first = _start(settings)
    first.start()
    first.executor.run_all()
    data = open_file(SAVED_TRACE)
    first.show_loaded(data, prepare_trace(data.trace), SAVED_TRACE)
    assert settings[remembered.LIVE_KEY] == remembered.FALSE  # opening the file switched Live off, remembered

    again = _start(settings)
    assert not again.model.live and again.model.shown is None
    assert again.start()
    again.executor.run_all()
    shown = again.model.shown
    assert shown is not None and shown.source is None
    ran = PipelineConfig.from_dict(shown.result.trace.meta.config)
    assert ran == again.model.config == data.config  # the controls' pipeline, as the file left them
    assert not again.model.live  # the first run leaves live mode as it was


def test_remembered_settings_that_no_longer_fit_are_dropped_with_a_note():
    settings = DictSettings({
        remembered.CONFIG_KEY: '{"streams": -3}', remembered.TARGET_KEY: "cupy/cuda:7",
        remembered.LIVE_KEY: "false", remembered.EXPLANATIONS_KEY: "maybe", remembered.AXIS_KEY: "own",
    })  # fmt: skip
    messages = Messages()
    controller = _start(settings, messages)
    model = controller.model
    assert (model.config, model.target, model.live, model.explanations, model.axis) == (
        PipelineConfig(), H200, False, True, CompareAxis.OWN)  # fmt: skip
    assert messages.notices == [
        "Remembered from last time but no longer usable, so the defaults are used: the pipeline's settings,"
        " the device (cupy/cuda:7), the callouts switch."
    ]
    assert messages.error == ""
    assert settings == {remembered.LIVE_KEY: "false", remembered.AXIS_KEY: "own"}  # the rest dropped for good
    assert remembered.restore(AppModel(), settings, SIM_TARGETS) is None  # nothing to say next time


def test_settings_that_all_fit_start_without_a_note():
    settings = DictSettings()
    _start(settings).commit_config(PipelineConfig(streams=2))
    messages = Messages()
    assert _start(settings, messages).model.config == PipelineConfig(streams=2)
    assert messages.notices == []
