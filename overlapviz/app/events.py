"""A typed event: callbacks connected to one fact of the model, called when it changes.

A model declares each of its facts once as a `Fact`, which gives it the attribute, the setter
and the event. Plain callbacks rather than Qt signals, so that the model and the controller
run (and are tested) without Qt; a Qt view connects its methods like any other callback.
Each callback is called on the thread that changed the fact, which in the app is always the
GUI thread.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MethodType
from typing import Generic, Protocol, TypeVar, overload

T = TypeVar("T")
T_contra = TypeVar("T_contra", contravariant=True)


class Event(Generic[T]):
    """Callbacks of one argument, called in the order they were connected."""

    def __init__(self) -> None:
        self._callbacks: list[Callable[[T], object]] = []

    def connect(self, callback: Callable[[T], object]) -> None:
        """Call `callback` with the new value from now on."""
        self._callbacks.append(callback)

    def disconnect(self, callback: Callable[[T], object]) -> None:
        """Stop calling `callback` (no error when it was not connected)."""
        if callback in self._callbacks:
            self._callbacks.remove(callback)

    def emit(self, value: T) -> None:
        """Call every connected callback with `value`."""
        for callback in list(self._callbacks):  # a callback may connect or disconnect others
            callback(value)


def _equal(old: object, new: object) -> bool:
    return bool(old == new)


class Fact(Generic[T]):
    """One fact of a model, declared once: read as an attribute, changed through `setter`, heard through `changed`.

    ``config = Fact(PipelineConfig())`` with ``set_config = config.setter`` and
    ``config_changed = config.changed`` gives ``model.config``, ``model.set_config(value)`` and
    ``model.config_changed`` (an `Event`). The setter emits only when the value is not `same`
    as the one held (equal, by default), so that a view that sets a fact and also listens to
    it is not called back with its own value. Each instance holds its own value and event.
    """

    def __init__(self, default: T, *, same: Callable[[T, T], bool] = _equal) -> None:
        self.default = default
        self._same = same
        self._value_key = self._event_key = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self._value_key, self._event_key = f"_{name}", f"_{name}_changed"

    @overload
    def __get__(self, instance: None, owner: type) -> Fact[T]: ...
    @overload
    def __get__(self, instance: object, owner: type) -> T: ...
    def __get__(self, instance: object | None, owner: type) -> Fact[T] | T:
        if instance is None:
            return self
        value: T = vars(instance).get(self._value_key, self.default)
        return value

    def set(self, instance: object, value: T) -> None:
        """Hold `value` on `instance`; tell the listeners, unless it is the value held already."""
        if self._same(self.__get__(instance, type(instance)), value):
            return
        vars(instance)[self._value_key] = value
        self.event_of(instance).emit(value)

    def event_of(self, instance: object) -> Event[T]:
        """The event of this fact on `instance` (made on first use)."""
        event: Event[T] = vars(instance).setdefault(self._event_key, Event())
        return event

    @property
    def setter(self) -> FactSetter[T]:
        """The fact's setter, as a method of the model."""
        return FactSetter(self)

    @property
    def changed(self) -> FactEvent[T]:
        """The fact's event, as an attribute of the model."""
        return FactEvent(self)


class SetFact(Protocol[T_contra]):
    """What ``model.set_x`` is: a call that sets the fact."""

    def __call__(self, value: T_contra, /) -> None:
        """Set the fact to `value`."""
        ...


class FactSetter(Generic[T]):
    """``model.set_x``: a method that sets the fact (see `Fact`)."""

    def __init__(self, fact: Fact[T]) -> None:
        self._set = fact.set

    def __get__(self, instance: object, owner: type) -> SetFact[T]:
        # a bound method of one function, so that two reads of ``model.set_x`` compare equal (as a disconnect needs)
        return MethodType(self._set, instance)


class FactEvent(Generic[T]):
    """``model.x_changed``: the fact's `Event` on the model (see `Fact`)."""

    def __init__(self, fact: Fact[T]) -> None:
        self._fact = fact

    def __get__(self, instance: object, owner: type) -> Event[T]:
        return self._fact.event_of(instance)
