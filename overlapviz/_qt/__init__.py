"""Everything that imports PySide6, pyqtgraph or superqt: the app, its widgets and exporters."""
