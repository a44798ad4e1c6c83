"""The "Simulated" badge: on every timeline the model drew, so that no picture of it passes for a measurement.

The status bar says "simulated" too, but presentation mode hides the status bar and an
exported picture has none. The badge belongs to the timeline itself, in a row of its own
above the plot (so it never covers a span), and so it is there in the window, in
presentation mode, in a comparison and in every export. A run on a real GPU and a trace
recorded by another tool carry none.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QT_TRANSLATE_NOOP, QSize, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QBoxLayout, QLabel, QSizePolicy, QWidget

from overlapviz._qt.timeline.text_extent import text_size
from overlapviz._qt.translation import translate
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.lab.client_result import lab_origin
from overlapviz.view.palette import OKABE_ITO

BADGE_COLOUR = OKABE_ITO["orange"]  # no span's colour: it reads as a label, not as work done
BADGE_TEXT_COLOUR = "#000000"  # contrast 9.3:1 on the orange (WCAG 2's formula), in every theme
PADDING_PX = (2, 8)  # above and below, left and right: the sheet's padding
BADGE_WORD = str(QT_TRANSLATE_NOOP("SimulatedBadge", "SIMULATED"))  # in the window's language: `badge_text`


def is_simulated(meta: TraceMeta) -> bool:
    """Whether the model drew the trace whose meta is `meta` (its backend says so: ``simulated``)."""
    return meta.simulated is True


def badge_text(meta: TraceMeta) -> str:
    """``SIMULATED · NVIDIA H200 (model)``: the word, and the device the model stood for."""
    device = meta.device_name or meta.device
    if not device:
        return translate("SimulatedBadge", BADGE_WORD)
    return translate("SimulatedBadge", "SIMULATED · {device}").format(device=device)


class SimulatedBadge(QLabel):
    """The badge; hidden until it is shown for a simulated trace (`show_for`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("simulated_badge")
        self.setStyleSheet(
            f"#simulated_badge {{ background: {BADGE_COLOUR}; color: {BADGE_TEXT_COLOUR};"
            f" border-radius: 4px; padding: {PADDING_PX[0]}px {PADDING_PX[1]}px; }}"
        )  # its own sheet: an export's sheet for its labels does not reach it
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.set_font(self.font())
        self.hide()

    def show_for(self, meta: TraceMeta | None) -> None:
        """Show the badge for a simulated trace or a lab server's run; hide it otherwise (None: nothing shown)."""
        origin = lab_origin(meta) if meta is not None else None
        if origin is not None:  # a learner's picture says which GPU of the class made it
            self.setText(origin[:1].upper() + origin[1:])
            self.show()
        elif meta is not None and is_simulated(meta):
            self.setText(badge_text(meta))
            self.show()
        else:
            self.setText("")
            self.hide()

    def set_font(self, font: QFont) -> None:
        """Write the badge in `font`, bold."""
        bold = QFont(font)
        bold.setBold(True)
        self.setFont(bold)

    def add_to(self, layout: QBoxLayout) -> None:
        """Put the badge in `layout`'s next row, at its right."""
        layout.addWidget(self, 0, Qt.AlignmentFlag.AlignRight)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        """QLabel's hint, as tall as the text's line: a Chinese device word comes from a taller fallback font."""
        hint = super().sizeHint()
        text = text_size(self.font(), self.text())
        room = QSize(math.ceil(text.width()) + 2 * PADDING_PX[1], math.ceil(text.height()) + 2 * PADDING_PX[0])
        return hint.expandedTo(room)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        """The whole text, never less: the badge is never cut."""
        return self.sizeHint()

    def height_needed(self) -> int:
        """The height the badge takes when shown (0 when hidden)."""
        return 0 if self.isHidden() else self.sizeHint().height()
