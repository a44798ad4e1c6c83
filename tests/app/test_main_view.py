"""The controller and the window's side of it (`app.main_view.MainView`): requests in, messages out, no Qt."""

from __future__ import annotations

from fakes import H200, SIM_TARGETS, DictSettings, ManualTimer, QueuedExecutor
from test_controller import model_run

from overlapviz.app import remembered
from overlapviz.app.controller import AppController
from overlapviz.app.main_view import MainView
from overlapviz.app.model import AppModel
from overlapviz.core.config import PipelineConfig


class View(MainView):
    """A window in words: the user's requests go in through `requests`, what it is told is kept."""

    def __init__(self):
        super().__init__()
        self.errors, self.notices = [], []

    def show_error(self, text):
        self.errors.append(text)

    def clear_error(self):
        self.errors.clear()

    def show_notice(self, text):
        self.notices.append(text)


def _controller(settings=None):
    view = View()
    controller = AppController(
        AppModel(), QueuedExecutor(), view, ManualTimer(), run_function=model_run, targets=SIM_TARGETS, default=H200,
        lessons=[], settings=DictSettings() if settings is None else settings,
    )  # fmt: skip
    controller.connect_view(view)
    return controller, view


def test_what_the_user_asks_through_the_view_reaches_the_model():
    controller, view = _controller()
    view.requests.set_live.emit(False)
    view.requests.commit_config.emit(PipelineConfig(streams=2))
    view.requests.choose_theme.emit("dark")
    assert controller.model.config == PipelineConfig(streams=2) and not controller.model.live
    assert controller.model.theme == "dark"
    view.requests.undo.emit(None)
    assert controller.model.config == PipelineConfig()
    view.requests.redo.emit(None)
    assert controller.model.config == PipelineConfig(streams=2)


def test_the_looks_are_remembered_with_the_other_settings_and_reset():
    settings = DictSettings()
    controller, view = _controller(settings)
    view.requests.choose_theme.emit("dark")
    controller.model.set_text_scale(1.15)
    assert (settings[remembered.THEME_KEY], settings[remembered.TEXT_SCALE_KEY]) == ("dark", "1.15")
    again, _view = _controller(settings)
    assert (again.model.theme, again.model.text_scale) == ("dark", 1.15)
    view.requests.reset_to_defaults.emit(None)
    assert (controller.model.theme, controller.model.text_scale) == ("light", 1.0)
    assert remembered.THEME_KEY not in settings and remembered.TEXT_SCALE_KEY not in settings


def test_a_text_size_that_is_no_number_is_passed_over_in_silence():
    settings = DictSettings({remembered.TEXT_SCALE_KEY: "large", remembered.THEME_KEY: "neon"})
    controller, view = _controller(settings)
    assert controller.model.text_scale == 1.0 and controller.model.theme == "neon"  # the window falls back
    assert view.notices == []
