"""Qt Designer forms from ui/*.ui, loaded at run time (no generated code to keep in step)."""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtCore import QFile, QIODevice, QObject
from PySide6.QtUiTools import QUiLoader
from PySide6.QtWidgets import QWidget
from superqt import QToggleSwitch

from overlapviz._qt.widgets.step_slider import StepSlider
from overlapviz.resources import ui_path

W = TypeVar("W", bound=QObject)
CUSTOM_WIDGETS = (StepSlider, QToggleSwitch)


class FormError(RuntimeError):
    """A form in ui/ is missing or broken (an install problem, not a user error)."""


def load_form(name: str, parent: QWidget | None = None) -> QWidget:
    """Build the widget tree of ``ui/<name>`` under `parent`."""
    path = ui_path(name)
    loader = QUiLoader()
    for widget_class in CUSTOM_WIDGETS:
        loader.registerCustomWidget(widget_class)
    file = QFile(str(path))
    if not file.open(QIODevice.OpenModeFlag.ReadOnly):
        raise FormError(f"cannot open the form {path}: {file.errorString()}")
    try:
        widget = loader.load(file, parent)
    finally:
        file.close()
    if widget is None:
        raise FormError(f"cannot load the form {path}: {loader.errorString()}")
    return widget


def child(form: QWidget, widget_class: type[W], name: str) -> W:
    """The child `name` of `form`; `FormError` if the form lacks it."""
    found = form.findChild(widget_class, name)
    if not isinstance(found, widget_class):
        raise FormError(f"the form {form.objectName()} has no {widget_class.__name__} called {name!r}")
    return found
