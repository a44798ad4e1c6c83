"""The controller the file and time-window tests drive: the model backend, the lessons, fakes for Qt's parts."""

import pytest
from fakes import H200, SIM_TARGETS, DictSettings, ManualTimer, Messages, QueuedExecutor
from test_controller import Clock, model_run

from overlapviz.app.controller import AppController
from overlapviz.app.model import AppModel
from overlapviz.presets import lessons


@pytest.fixture
def app():
    controller = AppController(
        AppModel(), QueuedExecutor(), Messages(), ManualTimer(), run_function=model_run, targets=SIM_TARGETS,
        default=H200, lessons=lessons(), settings=DictSettings(), clock=Clock(),
    )  # fmt: skip
    controller.executor, controller.messages = controller.runs._executor, controller.runs.messages
    return controller
