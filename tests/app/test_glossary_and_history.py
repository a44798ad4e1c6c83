from overlapviz.app.events import Event
from overlapviz.app.glossary import GLOSSARY
from overlapviz.app.undo import UndoHistory

WANTED = ("pinned", "pageable", "registered", "write-combined", "depth", "breadth", "legacy", "hardware queue")


def test_the_glossary_explains_each_term_and_says_where_the_app_shows_it():
    terms = " ".join(entry.term.lower() for entry in GLOSSARY)
    assert all(word in terms for word in WANTED)
    assert all(len(entry.meaning) > 40 and entry.where for entry in GLOSSARY)


def test_undo_history_is_bounded_and_redo_ends_with_a_new_change():
    history = UndoHistory(limit=3)
    for state in range(5):
        history.record(state)
    assert [history.undo(9), history.undo(4), history.undo(3), history.undo(2)] == [4, 3, 2, None]
    assert history.redo(2) == 3 and history.can_redo
    history.record(7)
    assert not history.can_redo


def test_an_event_calls_each_callback_once_in_order_and_forgets_disconnected_ones():
    event, seen = Event(), []
    first = lambda value: seen.append(("first", value))  # noqa: E731
    event.connect(first)
    event.connect(lambda value: seen.append(("second", value)))
    event.emit(1)
    event.disconnect(first)
    event.emit(2)
    assert seen == [("first", 1), ("second", 1), ("second", 2)]
