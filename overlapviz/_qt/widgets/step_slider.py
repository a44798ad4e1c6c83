"""A labelled slider over a fixed list of values (a log scale, or only the valid ones).

The handle moves over positions 0..n-1; each position stands for one entry of `values`, so a
log scale is just a list of log-spaced values, and a value that is not offered cannot be
chosen. The label beside the handle shows the chosen value in words ("256 MiB"), and an
optional second line gives a derived fact (the kernel's time per chunk).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget
from superqt import QLabeledSlider
from superqt.sliders._labeled import EdgeLabelMode

from overlapviz.view.slider_values import nearest_value


class StepSlider(QWidget):
    """A slider whose positions are the entries of a tuple of integers.

    Signals carry Python ints (``Signal(object)``: sizes exceed 32 bits). `value_changed`
    fires on every change, dragging included; `value_committed` fires when a change is
    final: the handle was released, or it moved by key, click or code without a drag.
    """

    value_changed = Signal(object)
    value_committed = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._values: tuple[int, ...] = (0,)
        self._configured = False
        self._format: Callable[[int], str] = str
        self._log = True
        self._slider = QLabeledSlider(Qt.Orientation.Horizontal, self)
        self._slider.setEdgeLabelMode(EdgeLabelMode.NoLabel)  # our label shows the value, not the index
        self._slider.setTracking(True)
        self._value_label = QLabel(self)
        self._value_label.setObjectName("slider_value")
        self._value_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self._value_label.setMinimumWidth(self.fontMetrics().horizontalAdvance("0000 MiB"))
        self._detail_label = QLabel(self)
        self._detail_label.setObjectName("slider_detail")
        self._detail_label.hide()
        self._build_layout()
        self._slider.valueChanged.connect(self._on_position_changed)
        self._slider.sliderReleased.connect(self._on_released)

    def _build_layout(self) -> None:
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self._slider, 1)
        row.addWidget(self._value_label)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addLayout(row)
        column.addWidget(self._detail_label)

    def configure(self, values: tuple[int, ...], formatter: Callable[[int], str] = str, *, log: bool = True) -> None:
        """Offer `values` (sorted), shown through `formatter`; keeps the nearest current value."""
        if not values:
            raise ValueError("a slider needs at least one value")
        current = self.value() if self._configured else values[0]
        self._configured = True
        self._values, self._format, self._log = tuple(values), formatter, log
        self._slider.blockSignals(True)
        self._slider.setRange(0, len(values) - 1)
        self._slider.setPageStep(max(1, len(values) // 8))
        self._slider.blockSignals(False)
        self.set_value(current)

    def values(self) -> tuple[int, ...]:
        """The values offered."""
        return self._values

    def value(self) -> int:
        """The chosen value."""
        return self._values[min(int(self._slider.value()), len(self._values) - 1)]

    def set_value(self, wanted: int) -> int:
        """Move to the offered value nearest `wanted`, without emitting; returns it."""
        chosen = nearest_value(self._values, wanted, log=self._log)
        self._slider.blockSignals(True)
        self._slider.setValue(self._values.index(chosen))
        self._slider.blockSignals(False)
        self._show_value()
        return chosen

    def set_detail(self, text: str) -> None:
        """Show `text` under the slider (hidden when empty)."""
        self._detail_label.setText(text)
        self._detail_label.setVisible(bool(text))

    def value_text(self) -> str:
        """The label beside the handle."""
        return self._value_label.text()

    def is_dragging(self) -> bool:
        """Whether the user is holding the handle."""
        return self._slider.isSliderDown()

    def step(self, positions: int) -> None:
        """Move by `positions` as the arrow keys do (emits both signals)."""
        self._slider.setValue(self._slider.value() + positions)

    def _show_value(self) -> None:
        self._value_label.setText(self._format(self.value()))

    def _on_position_changed(self, _position: int) -> None:
        self._show_value()
        self.value_changed.emit(self.value())
        if not self.is_dragging():
            self.value_committed.emit(self.value())

    def _on_released(self) -> None:
        self.value_committed.emit(self.value())
