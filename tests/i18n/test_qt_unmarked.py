"""The window's code shows no English word that escapes Qt's translation.

A literal of ``overlapviz/_qt`` is a word for the user when it is given to a call that puts
text on the screen (a label, a button, a menu, a tooltip, a status line, a dialog), or when it
reads as a sentence (three words or more). Each such literal is marked: written inside
``translate(...)`` (or ``QT_TRANSLATE_NOOP``), so that ``pyside6-lupdate`` extracts it. Exempt:
docstrings, messages for the program's developer (``raise``), dictionary keys, settings keys and
object names, and what the window writes to a terminal or a log.
"""

import ast
import re
from pathlib import Path

from literal_scan import called, inside, never_said, string_literals

QT_PACKAGE = Path(__file__).resolve().parents[2] / "overlapviz" / "_qt"
MARKS = {"translate", "QT_TRANSLATE_NOOP", "QT_TR_NOOP", "tr"}
# calls whose string arguments the user reads
SHOWN = {
    "QAction", "QMenu", "QLabel", "QPushButton", "QCheckBox", "QRadioButton", "QGroupBox", "QToolButton",
    "QLineEdit", "QWidgetAction", "QDockWidget",
    "setText", "setToolTip", "setStatusTip", "setWhatsThis", "setWindowTitle", "setPlaceholderText",
    "setTitle", "addMenu", "addAction", "showMessage", "setLabelText", "setTabText", "addTab", "insertTab",
    "addItem", "addItems", "insertItem", "setHeaderLabels", "setHorizontalHeaderLabels",
    "setVerticalHeaderLabels", "setItemText", "setSuffix", "setPrefix", "setSpecialValueText",
    "setFormat", "setAccessibleName", "setAccessibleDescription", "information", "warning", "critical",
    "question", "getSaveFileName", "getOpenFileName", "getExistingDirectory", "addRow", "setLabel",
    "setInformativeText", "setDetailedText", "setButtonText", "addButton", "setHtml", "setMarkdown",
    "setPlainText", "setCancelButtonText", "setWindowIconText", "setTextFormat_", "QMessageBox",
    "QProgressDialog", "QTableWidgetItem", "QListWidgetItem", "QTreeWidgetItem", "QStandardItem",
}  # fmt: skip
# calls whose string arguments are names for the program, never shown
NOT_SHOWN = {
    "setObjectName", "setValue", "value", "contains", "remove", "beginGroup", "print", "write", "getLogger",
    "debug", "info", "exception", "error", "setProperty", "property", "findChild", "findChildren",
    "setStyleSheet", "QKeySequence", "setShortcut", "setShortcuts", "QColor", "QFont", "QSettings", "Signal",
    "Slot", "Property", "setApplicationName", "setOrganizationName", "connect", "environ", "get", "getenv",
}  # fmt: skip
# literals that read as sentences but are never shown: the start of a Qt log line that app.py drops
NEVER_SHOWN = {"This plugin does not support"}
WORD = re.compile(r"[A-Za-z]{2,}")
SENTENCE = re.compile(r"[A-Za-z]{2,}(?: [A-Za-z]{2,}){2,}")


def _literals(node: ast.AST) -> list[ast.Constant]:
    """The string constants of `node` that are words (inside f-strings too)."""
    return [c for c in ast.walk(node) if isinstance(c, ast.Constant) and isinstance(c.value, str)]


def unmarked_words(source: str, name: str) -> list[str]:
    """``name:line: text`` of every literal of `source` shown to the user (or reading as a sentence) and not marked."""
    tree = ast.parse(source)
    exempt = never_said(tree)
    shown: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise):
            exempt |= inside(node)
        if isinstance(node, ast.Subscript):
            exempt |= inside(node.slice)
        if isinstance(node, ast.Call):
            name_called = called(node)
            if name_called in MARKS or name_called in NOT_SHOWN:
                exempt |= inside(node)
            elif name_called in SHOWN:
                for argument in [*node.args, *(keyword.value for keyword in node.keywords)]:
                    shown |= {id(literal) for literal in _literals(argument)}
    return [
        f"{name}:{node.lineno}: {node.value!r}"
        for node in string_literals(tree, exempt)
        if node.value not in NEVER_SHOWN
        and ((id(node) in shown and WORD.search(node.value)) or SENTENCE.search(node.value))
    ]  # fmt: skip


def test_every_word_the_window_shows_is_marked_for_translation() -> None:
    found = [
        line
        for path in sorted(QT_PACKAGE.rglob("*.py"))
        for line in unmarked_words(path.read_text(encoding="utf-8"), str(path.relative_to(QT_PACKAGE.parent)))
    ]
    assert not found, f"{len(found)} unmarked (wrap each in translate(context, text)):\n" + "\n".join(found)


def test_the_check_finds_an_unmarked_label_and_passes_a_marked_one() -> None:
    source = (
        'label = QLabel("Pinned memory")\n'
        'marked = QLabel(translate("Sample", "Pinned memory"))\n'
        'settings.setValue("view/language", code)\n'
        'tip = f"Copies in {lane} overlap with kernels"\n'
        'raise ValueError("a message for the developer, not the user")\n'
    )
    found = unmarked_words(source, "sample.py")
    # the f-string is found by its part that reads as a sentence
    assert found == ["sample.py:1: 'Pinned memory'", "sample.py:4: ' overlap with kernels'"]
