"""A model's facts, declared once (`app.events.Fact`): read, set, heard only when they change."""

from __future__ import annotations

from overlapviz.app.events import Fact


class Lamp:
    on = Fact(False)
    set_on = on.setter
    on_changed = on.changed
    held: Fact[object] = Fact(None, same=lambda old, new: old is new)
    set_held = held.setter
    held_changed = held.changed


def test_a_setter_that_changes_nothing_says_nothing():
    lamp, heard = Lamp(), []
    lamp.on_changed.connect(heard.append)
    lamp.set_on(False)
    lamp.set_on(True)
    lamp.set_on(True)
    assert lamp.on and heard == [True]


def test_each_model_holds_its_own_values_and_listeners():
    first, second, heard = Lamp(), Lamp(), []
    first.on_changed.connect(heard.append)
    second.set_on(True)
    assert not first.on and second.on and heard == []


def test_a_fact_compared_by_identity_tells_of_an_equal_new_value():
    lamp, heard = Lamp(), []
    lamp.held_changed.connect(heard.append)
    lamp.set_held([1])
    lamp.set_held([1])
    assert len(heard) == 2


def test_the_setter_read_twice_is_the_same_callback():
    lamp, heard = Lamp(), []
    lamp.on_changed.connect(heard.append)
    lamp.on_changed.disconnect(heard.append)
    assert lamp.set_on == lamp.set_on
    lamp.set_on(True)
    assert heard == []
