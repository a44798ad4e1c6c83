"""The shape of the Qt side: no import circle under `_qt`, and the main window composed in one place.

The import-linter contracts keep the layers apart; these two rules are about the modules
inside `_qt`, which a layers contract cannot see.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

import overlapviz

QT = "overlapviz._qt"
MAIN_WINDOW = "overlapviz._qt.main_window"
ENTRY = "overlapviz._qt.app"


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("overlapviz")


def _qt_modules(graph: grimp.ImportGraph) -> set[str]:
    return {module for module in graph.modules if module == QT or module.startswith(QT + ".")}


def import_circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module in `edges` (module -> what it imports)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's algorithm; the graph is a few dozen modules
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in edges.get(module, ()):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return circles


def test_the_circle_finder_finds_a_planted_circle():
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_under_qt(graph):
    modules = _qt_modules(graph)
    edges = {module: graph.find_modules_directly_imported_by(module) & modules for module in modules}
    assert import_circles(edges) == []


def test_only_the_apps_entry_imports_the_main_window(graph):
    assert graph.find_modules_that_directly_import(MAIN_WINDOW) == {ENTRY}


def test_no_collaborator_takes_the_main_window():
    """Views and tools get small Protocols (app.ports, files.file_actions.FileHost, ...), not the window."""
    package = Path(overlapviz.__file__).parent / "_qt"
    takers = []
    for path in sorted(package.rglob("*.py")):
        if path.name == "main_window.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            annotation = ast.unparse(node.annotation) if isinstance(node, ast.arg) and node.annotation else ""
            # Qt's own QMainWindow is fine: menus and toolbars are added to it
            if "MainWindow" in annotation and annotation != "QMainWindow":
                takers.append(f"{path.relative_to(package)}: {annotation}")
    assert takers == []
