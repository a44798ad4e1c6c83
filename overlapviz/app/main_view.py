"""The main window as the controller sees it: where it says what happened, and what the user asks for.

The Qt window implements `MainView` through a small adapter (`_qt.window_view`), turning its
controls' and menus' signals into the plain `Requests` events below; the controller connects
to them (`AppController.connect_view`) and says what happened through the `Messages` part.
The controller's tests use a plain subclass. No Qt here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from overlapviz.app.events import Event
from overlapviz.app.run_targets import RunTarget
from overlapviz.core.config import PipelineConfig


@dataclass(frozen=True)
class Requests:
    """What the user asks of the app through the main window, one event each."""

    run: Event[None] = field(default_factory=Event)  # Run, now
    edit_config: Event[PipelineConfig] = field(default_factory=Event)  # a control moves
    commit_config: Event[PipelineConfig] = field(default_factory=Event)  # a control's change is final
    choose_target: Event[RunTarget | None] = field(default_factory=Event)
    set_live: Event[bool] = field(default_factory=Event)
    undo: Event[None] = field(default_factory=Event)
    redo: Event[None] = field(default_factory=Event)
    reset_to_defaults: Event[None] = field(default_factory=Event)
    choose_theme: Event[str] = field(default_factory=Event)


class MainView(ABC):
    """The main window's side of the controller: `requests` from the user, messages to the user."""

    def __init__(self) -> None:
        self.requests = Requests()

    @abstractmethod
    def show_error(self, text: str) -> None:
        """Say what went wrong, in the window, until cleared."""

    @abstractmethod
    def clear_error(self) -> None:
        """Take the error away (a newer run succeeded)."""

    @abstractmethod
    def show_notice(self, text: str) -> None:
        """A passing message."""
