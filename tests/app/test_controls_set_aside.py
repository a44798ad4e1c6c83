"""After another tool's trace is opened the controls stand apart from it, until they change or a run shows. No Qt."""

from pathlib import Path

from overlapviz.app.session_file import SessionData, open_file
from overlapviz.core.config import PipelineConfig
from overlapviz.session import run_pipeline
from overlapviz.view.prepared import prepare_trace, prepare_view

DATA = Path(__file__).parent.parent / "data"
TRAIN_STEP = DATA / "torch" / "torch-train-step.json.gz"
NSYS = DATA / "nsys" / "test-cuda-2026.1-pinned-streams.sqlite.gz"


def _open(app, path):
    data = open_file(path)
    app.show_loaded(data, prepare_trace(data.trace), path)
    app.executor.run_all()  # lining up, when comparing
    return app.model.shown


def _run(app):
    app.run()
    app.executor.run_all()
    app.executor.run_all()  # lining up, when comparing with a file
    return app.model.shown


def test_a_trace_without_settings_sets_the_controls_aside_and_a_run_brings_them_back(app):
    seen = []
    app.model.controls_set_aside_changed.connect(seen.append)
    _run(app)
    assert not app.model.controls_set_aside
    config = app.model.config
    _open(app, TRAIN_STEP)
    assert app.model.controls_set_aside and app.model.config == config  # the file holds no pipeline to show
    app.run()
    assert app.model.controls_set_aside  # still the file on show until the run's result replaces it
    app.executor.run_all()
    assert not app.model.controls_set_aside and app.model.shown.source is None
    assert seen == [True, False]


def test_any_change_of_the_controls_brings_them_back_without_a_run(app):
    _open(app, NSYS)
    assert not app.model.live  # opening stopped live mode: nothing runs by itself
    app.edit_config(PipelineConfig(streams=2))  # a slider being dragged
    assert not app.model.controls_set_aside and app.model.shown.source == NSYS
    _open(app, NSYS)
    app.choose_target(next(t for t in app.targets if t.device == "tesla-c1060"))
    assert not app.model.controls_set_aside
    _open(app, NSYS)
    app.reset_to_defaults()
    assert not app.model.controls_set_aside


def test_undo_after_opening_a_trace_is_a_change_of_the_controls(app):
    app.model.set_live(False)
    app.commit_config(PipelineConfig(chunks=8))
    _open(app, TRAIN_STEP)
    assert app.model.controls_set_aside and app.runs.history.can_undo  # opening it recorded nothing
    assert app.undo() and app.model.config == PipelineConfig()
    assert not app.model.controls_set_aside and app.model.shown.source == TRAIN_STEP
    _open(app, TRAIN_STEP)
    assert app.redo() and app.model.config == PipelineConfig(chunks=8) and not app.model.controls_set_aside


def test_a_file_of_overlapvizs_own_holds_its_settings_the_controls_describe(app, tmp_path):
    view = prepare_view(run_pipeline(PipelineConfig(chunks=8), "sim", "tesla-c1060"))
    _open(app, TRAIN_STEP)
    app.show_loaded(SessionData(PipelineConfig(chunks=8), view.trace, "sim", "tesla-c1060"), view, tmp_path / "r.json")
    assert not app.model.controls_set_aside and app.model.config == PipelineConfig(chunks=8)


def test_a_window_of_the_trace_keeps_them_aside(app):
    _open(app, TRAIN_STEP)
    assert app.windows.choose_range("step 1")
    app.executor.run_all()
    assert app.model.time_window is not None and app.model.controls_set_aside
    app.windows.whole_trace()
    assert app.model.controls_set_aside


def test_a_lesson_runs_its_own_pipeline_and_the_controls_describe_it(app):
    _open(app, TRAIN_STEP)
    assert app.lessons.start(0)
    assert not app.model.controls_set_aside  # the file is off show, the lesson's pipeline in the controls
    app.executor.run_all()
    assert app.model.lesson is not None and not app.model.controls_set_aside


def test_comparing_a_trace_keeps_them_aside_while_it_is_b_and_a_run_of_b_brings_them_back(app):
    _run(app)
    assert app.compare.pin_current()
    _open(app, TRAIN_STEP)
    assert app.model.shown.label == TRAIN_STEP.name and app.model.controls_set_aside  # B is the file
    assert app.compare.pin_current()  # the file becomes A, still on show as B until a run
    assert app.model.controls_set_aside
    shown = _run(app)
    assert shown.source is None and app.model.pinned.a.source == TRAIN_STEP
    assert not app.model.controls_set_aside  # B is the controls' run
    _open(app, NSYS)
    assert app.compare.pageable_vs_pinned()  # B pinned: the controls' own settings, the file still on show
    app.executor.run_all()
    assert app.model.pinned.a.label == "pageable" and not app.model.controls_set_aside
