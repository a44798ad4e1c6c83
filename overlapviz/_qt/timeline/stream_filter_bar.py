"""The row above a timeline of many streams: a text that stream lanes must mention, quiet streams folded."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QLineEdit, QWidget

from overlapviz._qt.translation import translate
from overlapviz.core.i18n import grouped
from overlapviz.view.stream_filter import StreamFilter


class StreamFilterBar(QWidget):
    """A filter text and a "Hide quiet streams" switch; `changed` gives the filter they make."""

    changed = Signal(object)  # StreamFilter

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text = QLineEdit(self)
        self.text.setObjectName("stream_filter_text")
        self.text.setPlaceholderText(
            translate("StreamFilterBar", "Filter streams: a stream's title or a kernel or copy name on it")
        )
        self.text.setClearButtonEnabled(True)
        self.quiet = QCheckBox(translate("StreamFilterBar", "Hide quiet streams"), self)
        self.quiet.setToolTip(
            translate("StreamFilterBar", "Fold the streams busy less than 1% of their GPU's run into one lane")
        )
        self.quiet.setChecked(True)
        self.count = QLabel(self)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.quiet)
        layout.addWidget(self.count)
        self.text.textChanged.connect(self._emit)
        self.quiet.toggled.connect(self._emit)

    def current(self) -> StreamFilter:
        """The filter the bar shows."""
        return StreamFilter(self.text.text(), self.quiet.isChecked())

    def show_filter(self, wanted: StreamFilter) -> None:
        """Show `wanted` without announcing it."""
        self.blockSignals(True)
        try:
            self.text.setText(wanted.text)
            self.quiet.setChecked(wanted.hide_quiet)
        finally:
            self.blockSignals(False)

    def show_count(self, shown: int, total: int) -> None:
        """Say how many of the trace's stream lanes are on show."""
        if total == 1:
            text = translate("StreamFilterBar", "{shown} of {total} stream lane")
        else:
            text = translate("StreamFilterBar", "{shown} of {total} stream lanes")
        self.count.setText(text.format(shown=grouped(shown), total=grouped(total)))

    def _emit(self, *_args: object) -> None:
        self.changed.emit(self.current())
