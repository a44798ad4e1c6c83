"""The application controller against plain stand-ins for the window: no Qt anywhere."""

import subprocess
import sys

import pytest
from fakes import H200, SIM_TARGETS, DictSettings, ManualTimer, Messages, QueuedExecutor

from overlapviz.app import remembered
from overlapviz.app.controller import LIVE_MAX_WAIT_S, AppController
from overlapviz.app.model import AppModel, CompareAxis
from overlapviz.app.session_file import SessionData
from overlapviz.core.config import HostMemory, PipelineConfig
from overlapviz.core.run_errors import BackendError
from overlapviz.presets import lessons
from overlapviz.session import run_pipeline
from overlapviz.view.prepared import prepare_view

C1060 = next(t for t in SIM_TARGETS if t.device == "tesla-c1060")


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def model_run(config, backend, device, cancel):
    return run_pipeline(config, "sim", device if backend == "sim" else "h200", cancel)


@pytest.fixture
def app():
    model = AppModel()
    executor, messages, timer, clock, settings = QueuedExecutor(), Messages(), ManualTimer(), Clock(), DictSettings()
    controller = AppController(
        model, executor, messages, timer, run_function=model_run, targets=SIM_TARGETS, default=H200,
        lessons=lessons(), settings=settings, clock=clock,
    )  # fmt: skip
    controller.executor, controller.messages, controller.timer = executor, messages, timer
    controller.clock, controller.settings = clock, settings
    return controller


def _run(app):
    app.run()
    app.executor.run_all()
    return app.model.shown


def test_a_run_puts_its_prepared_result_on_show_once(app):
    seen = []
    app.model.shown_changed.connect(seen.append)
    shown = _run(app)
    assert shown is not None and shown.source is None
    assert shown.view.metrics is shown.result.metrics  # the result on show is held once, with its numbers
    assert seen == [shown]


def test_a_newer_run_supersedes_the_one_waiting(app):
    app.model.set_live(False)
    app.run()
    app.commit_config(PipelineConfig(streams=2))
    app.model.set_live(True)
    app.commit_config(PipelineConfig(streams=3))
    assert app.executor.submitted == 2 and len(app.executor.pending) == 1
    app.executor.run_all()
    assert app.model.shown.result.trace.meta.config["streams"] == 3


def test_a_failed_run_says_why_and_keeps_the_picture(app):
    shown = _run(app)

    def broken(config, backend, device, cancel):
        raise BackendError("the RAM guard refused 32 GiB")

    app.runs._run_function = broken
    _run(app)
    assert app.messages.error == "The run did not complete: the RAM guard refused 32 GiB"
    assert app.model.shown is shown
    app.runs._run_function = model_run
    _run(app)
    assert app.messages.error == ""


def test_no_target_is_said_not_run(app):
    app.model.set_target(None)
    assert not app.run() and "No backend can run here" in app.messages.error


def test_live_edits_run_when_the_slider_pauses_or_after_the_longest_wait(app):
    app.model.set_live(True)
    app.edit_config(PipelineConfig(streams=2))
    assert app.model.config.streams == 2 and app.timer.is_active() and app.executor.submitted == 0
    app.clock.now += LIVE_MAX_WAIT_S / 2
    app.edit_config(PipelineConfig(streams=3))
    assert app.executor.submitted == 0
    app.timer.fire()  # the slider paused
    assert app.executor.submitted == 1
    app.edit_config(PipelineConfig(streams=5))
    app.clock.now += LIVE_MAX_WAIT_S
    app.edit_config(PipelineConfig(streams=6))  # still moving, but long enough: run anyway
    assert app.executor.submitted == 2 and not app.timer.is_active()


def test_without_live_changes_wait_for_run(app):
    app.model.set_live(False)
    app.commit_config(PipelineConfig(streams=2))
    app.edit_config(PipelineConfig(streams=3))
    assert app.executor.submitted == 0 and not app.timer.is_active()
    app.set_live(True)
    assert app.executor.submitted == 1


def test_undo_and_redo_put_the_controls_back(app):
    app.model.set_live(False)
    history = []
    steps = app.runs.history
    steps.changed.connect(lambda _none: history.append((steps.can_undo, steps.can_redo)))
    app.edit_config(PipelineConfig(streams=2))  # a drag ...
    app.edit_config(PipelineConfig(streams=3))
    app.commit_config(PipelineConfig(streams=3))  # ... released: one step
    app.commit_config(PipelineConfig(streams=3, memory=HostMemory.PAGEABLE))
    app.choose_target(C1060)
    assert app.undo() and app.model.target == H200
    assert app.undo() and app.model.config == PipelineConfig(streams=3)
    assert app.undo() and app.model.config == PipelineConfig()
    assert not app.undo()
    assert app.redo() and app.model.config == PipelineConfig(streams=3)
    app.commit_config(PipelineConfig(chunks=8))  # a new change: what was undone is gone
    assert not app.redo()
    assert history[-1] == (True, False)


def test_a_lesson_is_state_that_any_change_leaves(app):
    app.model.set_live(True)
    index = next(i for i, p in enumerate(app.lessons.lessons) if p.name == "pin-too-much")
    assert app.lessons.start(index)
    app.executor.run_all()
    assert "refusing to pin" in app.messages.error and app.model.shown is None  # the lesson's own point
    lesson = app.model.lesson
    assert lesson is not None and lesson.index == index and not lesson.departed
    app.commit_config(PipelineConfig(size_bytes=192 * 2**20))  # the user's own pipeline now
    assert app.model.lesson.departed and app.model.lesson.index == index
    app.executor.run_all()
    assert app.messages.error == "" and app.model.shown.result.trace.meta.config["size_bytes"] == 192 * 2**20
    app.lessons.close()
    assert app.model.lesson is None


def test_stopping_a_comparison_and_a_pair_of_ones_own_end_the_lesson(app):
    comparison = next(i for i, p in enumerate(app.lessons.lessons) if p.is_comparison)
    app.lessons.start(comparison)
    app.executor.run_all()
    assert app.model.comparing and app.model.lesson is not None
    app.compare.unpin()
    assert app.model.lesson is None and not app.model.comparing
    app.lessons.start(comparison)
    app.executor.run_all()
    app.compare.pageable_vs_pinned()
    assert app.model.lesson is None
    app.executor.run_all()
    assert app.model.pinned.a.label == "pageable" and app.model.shown.label == "pinned"


def test_pin_compare_and_the_title_goes_with_a_run_of_ones_own(app):
    assert not app.compare.pin_current() and "no run to pin" in app.messages.error
    a = _run(app)
    assert app.compare.pin_current()
    assert app.model.pinned.a.view is a.view
    app.model.set_live(True)
    app.commit_config(PipelineConfig(streams=1))
    app.executor.run_all()
    assert app.model.pinned.a.view is a.view and app.model.shown.result.trace.meta.config["streams"] == 1
    app.lessons.start(next(i for i, p in enumerate(app.lessons.lessons) if p.is_comparison))
    app.executor.run_all()
    assert app.model.pinned.title
    _run(app)
    assert app.model.pinned.title == ""  # B is no longer the pair's own


def test_the_axis_of_a_comparison_is_the_models_and_remembered(app):
    app.compare.set_axis(CompareAxis.OWN)
    assert app.model.axis is CompareAxis.OWN and app.settings[remembered.AXIS_KEY] == "own"


def test_a_loaded_file_stops_live_mode_and_leaves_the_lesson(app, tmp_path):
    app.model.set_live(True)
    app.lessons.start(0)
    view = prepare_view(run_pipeline(PipelineConfig(chunks=8), "sim", "tesla-c1060"))
    app.show_loaded(SessionData(PipelineConfig(chunks=8), view.trace, "sim", "tesla-c1060"), view, tmp_path / "x.json")
    assert not app.model.live and app.model.lesson is None
    assert app.model.config == PipelineConfig(chunks=8) and app.model.target == C1060
    assert app.model.shown.source == tmp_path / "x.json" and app.model.shown.view is view
    app.executor.run_all()  # the lesson's run was dropped
    assert app.model.shown.view is view


def test_settings_are_remembered_and_restored_and_reset(app):
    app.model.set_live(False)
    app.commit_config(PipelineConfig(streams=2))
    app.choose_target(C1060)
    app.set_explanations(False)
    model = AppModel()
    AppController(model, QueuedExecutor(), Messages(), ManualTimer(), run_function=model_run, targets=SIM_TARGETS,
                  default=H200, lessons=[], settings=app.settings)  # fmt: skip
    assert (model.config, model.target, model.live, model.explanations) == (PipelineConfig(streams=2), C1060, False,
                                                                             False)  # fmt: skip
    restored = []
    app.defaults_restored.connect(restored.append)
    app.reset_to_defaults()
    assert (app.model.config, app.model.target, app.model.live, app.model.explanations) == (
        PipelineConfig(), H200, True, True)  # fmt: skip
    assert restored == [None] and not any(key in app.settings for key in remembered.KEYS)


def test_a_stale_settings_file_is_ignored(app):
    settings = DictSettings({remembered.CONFIG_KEY: '{"streams": -3}', remembered.TARGET_KEY: "cupy/cuda:7",
                             remembered.LIVE_KEY: "maybe", remembered.AXIS_KEY: "sideways"})  # fmt: skip
    model = AppModel()
    AppController(model, QueuedExecutor(), Messages(), ManualTimer(), run_function=model_run, targets=SIM_TARGETS,
                  default=H200, lessons=[], settings=settings)  # fmt: skip
    assert (model.config, model.target, model.live, model.axis) == (PipelineConfig(), H200, True, CompareAxis.SHARED)


def test_presentation_is_the_models():
    model = AppModel()
    seen = []
    model.presenting_changed.connect(seen.append)
    model.set_presenting(True)
    model.set_presenting(True)
    model.set_presenting(False)
    assert seen == [True, False]


def test_the_controller_and_model_import_no_qt():
    code = (
        "import sys; import overlapviz.app.controller, overlapviz.app.model, overlapviz.app.remembered,"
        " overlapviz.app.glossary, overlapviz.view.prepared;"
        " print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'superqt', 'shiboken6')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_settings_value_nested_too_deeply_is_ignored_too():
    settings = DictSettings({remembered.CONFIG_KEY: "[" * 100_000 + "]" * 100_000})
    assert remembered.remembered_config(settings) is None
