"""The rank overview takes the window's looks: the user's theme, presentation mode's, the text size; and its keys."""

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication

from overlapviz._qt.help import shortcut_rows
from overlapviz._qt.ranks.rank_actions import COMPARE_RANKS_KEYS
from overlapviz._qt.themes import THEMES


def _looks(panel):
    """The overview's colours and fonts as drawn: the plot's background and axis text, the key's text, the fonts."""
    plot = panel.plot
    return {
        "background": plot.backgroundBrush().color().name(),
        "axis text": plot.getAxis("left").textPen().color().name(),
        "key text": panel.legend._text_colour.name(),
        "findings font": panel.findings.font().pointSizeF(),
        "axis font": QFont(plot.getAxis("bottom").style["tickFont"]).pointSizeF(),
    }


def test_the_users_theme_restyles_the_overview(qtbot, window):
    window.window_actions.themes["dark"].trigger()
    dark = THEMES["dark"]
    looks = _looks(window.rank_panel)
    assert (looks["background"], looks["axis text"], looks["key text"]) == (dark.background.lower(),
                                                                            *[dark.foreground.lower()] * 2)  # fmt: skip


def test_presentation_mode_restyles_the_overview_and_leaving_puts_it_back(qtbot, window):
    window.window_actions.themes["dark"].trigger()
    before = _looks(window.rank_panel)
    with qtbot.waitSignal(window.teaching.presentation.settled, timeout=10_000):
        window.teaching.actions.presentation.trigger()
    presented, projector = _looks(window.rank_panel), THEMES["projector"]
    assert presented["background"] == projector.background.lower()
    assert presented["key text"] == projector.foreground.lower()
    assert presented["findings font"] == presented["axis font"] == QApplication.font().pointSizeF()
    assert presented["findings font"] > before["findings font"]
    with qtbot.waitSignal(window.teaching.presentation.settled, timeout=10_000):
        window.teaching.presentation.leave()
    assert _looks(window.rank_panel) == before


def test_bigger_text_grows_the_overviews_text(qtbot, window):
    before = _looks(window.rank_panel)["findings font"]
    window.window_actions.bigger_text.trigger()
    after = _looks(window.rank_panel)
    assert after["findings font"] == after["axis font"] > before


def test_compare_ranks_has_a_free_shortcut_named_in_its_tips_and_in_help(qtbot, window):
    action = window.ranks.actions.compare_ranks
    assert [key.toString() for key in action.shortcuts()] == [COMPARE_RANKS_KEYS]
    rows = shortcut_rows(window)
    assert (COMPARE_RANKS_KEYS, "Compare ranks") in rows
    assert [what for keys, what in rows if keys == COMPARE_RANKS_KEYS] == ["Compare ranks"]  # no other action's
    panel = window.rank_panel
    for tip in (action.toolTip(), panel.compare_button.toolTip(), panel.how.text()):
        assert COMPARE_RANKS_KEYS in tip
