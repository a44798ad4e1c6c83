"""What the export dialog offers."""

import pytest

from overlapviz._qt.export.export_dialog import SIZES, ExportDialog


@pytest.fixture
def dialog(qapp):
    dialog = ExportDialog(None, "light", (1.0, 2.0))
    yield dialog
    dialog.dialog.deleteLater()


def test_a_slide_is_exactly_its_size_and_says_it_is_a_slide(dialog):
    chosen = []
    for index in range(dialog.size.count()):
        dialog.size.setCurrentIndex(index)
        options = dialog.options()
        chosen.append((dialog.size.currentText().startswith("Slide"), options.width, options.height))
    assert chosen == [(True, 1920, 1080), (True, 3840, 2160), (False, 1920, None), (False, 3840, None)]
    assert [size.name for size in SIZES] == [dialog.size.itemText(i) for i in range(dialog.size.count())]
    dialog.size.setCurrentIndex(0)
    assert dialog.options().window_ms == (1.0, 2.0)  # the slide keeps the other choices
