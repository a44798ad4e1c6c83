"""The import contracts hold: each kind of violation, planted in a copy of the package, breaks them.

A plant is an import added to a copy of ``overlapviz`` (a line at the end of a module, or a
new module; two for a path through a third module); ``lint-imports`` then checks the copy
against the project's own contracts and must name exactly the contracts that plant breaks.
The copy with nothing planted must pass.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The one beside this interpreter, so that a fresh virtual environment finds its own.
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
CONTRACTS: list[str] = [
    contract["name"]
    for contract in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
]


def _contract(start: str) -> str:
    (name,) = [name for name in CONTRACTS if name.startswith(start)]
    return name


LAYERS = _contract("Layers:")
BACKENDS = _contract("Backends:")
QT = _contract("Qt only")
CUDA = _contract("CUDA packages only")
VIEWS = _contract("Views never import backends")
CYCLES = _contract("No cycles")
BABEL = _contract("Translations:")
I18N = _contract("The translation layer")


class Plant(NamedTuple):
    lines: dict[str, str]  # file under overlapviz/ -> the line it gets: appended, or a new module of it
    breaks: frozenset[str]


def _plant(module: str, line: str, *breaks: str) -> Plant:
    return Plant({module: line}, frozenset(breaks))


# Each plant imports packages and modules that the layering itself names, so that it still
# means the same when modules move within their layer. An import up the layers, into a part
# that imports the plant's own, closes a cycle too, and breaks that contract as well.
PLANTS = {
    # Qt anywhere but _qt, and reached from no command but app and pictures, and only through _qt
    "Qt in presets": _plant("presets.py", "from PySide6.QtGui import QColor", QT),
    "Qt in the main command at module level": _plant("commands/main.py", "import pyqtgraph", QT),
    "Qt in the app command, not through _qt": _plant("commands/app.py", "import pyqtgraph", QT),
    "Qt in core": _plant("core/planted.py", "from PySide6 import QtCore", QT),
    "Qt in session": _plant("session.py", "import superqt", QT),
    "Qt in the view, from a package nothing imports yet": _plant("view/planted.py", "import shiboken6", QT),
    # CUDA anywhere but backends.cupy
    "cupy in _qt": _plant("_qt/planted.py", "import cupy", CUDA),
    "cupy in presets": _plant("presets.py", "import cupy", CUDA),
    "cupy in core": _plant("core/planted.py", "import cupy", CUDA),
    "cuda-python in the app": _plant("app/planted.py", "from cuda.bindings import runtime", CUDA),
    "nvtx in the registry": _plant("backends/registry.py", "import nvtx", CUDA),
    "cupti in a command": _plant("record_block.py", "from cupti import cupti", CUDA),
    # Babel builds the catalogues; the program reads them with gettext alone
    "Babel at run time": _plant("run_report.py", "import babel.numbers", BABEL),
    "the translation layer importing the trace": _plant(
        "core/i18n/planted.py", "import overlapviz.core.trace", I18N, CYCLES
    ),
    # the backends' own layers
    "sim importing cupy": _plant("backends/sim/planted.py", "import overlapviz.backends.cupy", BACKENDS),
    "cupy importing sim": _plant("backends/cupy/planted.py", "import overlapviz.backends.sim", BACKENDS),
    "base importing sim": _plant("backends/base.py", "import overlapviz.backends.sim", BACKENDS, CYCLES),
    "calibration importing cupy": _plant(
        "backends/calibration.py", "import overlapviz.backends.cupy", BACKENDS, CYCLES
    ),
    "sim importing the registry": _plant(
        "backends/sim/planted.py", "import overlapviz.backends.registry", BACKENDS, CYCLES
    ),
    "a backends module in no layer": _plant("backends/planted.py", '"""Not placed."""', BACKENDS),
    # the package's layers
    "core importing resources": _plant("core/planted.py", "from overlapviz import resources", LAYERS),
    "resources importing core": _plant("resources.py", "import overlapviz.core", LAYERS),
    "core importing session": _plant("core/planted.py", "from overlapviz import session", LAYERS, CYCLES),
    "backends importing importers": _plant("backends/registry.py", "import overlapviz.importers", LAYERS),
    "view importing app": _plant("view/planted.py", "import overlapviz.app", LAYERS, CYCLES),
    "presets importing _qt": _plant("presets.py", "import overlapviz._qt", LAYERS, CYCLES),
    "session importing a command": _plant("session.py", "import overlapviz.record_block", LAYERS, CYCLES),
    "a module in no layer": _plant("planted.py", '"""Not placed."""', LAYERS),
    # a view asks a backend itself (the layers allow it: the view is above the backends)
    "a view importing a backend": _plant("view/planted.py", "from overlapviz.backends import registry", VIEWS),
    "a view importing the model": _plant("view/planted.py", "import overlapviz.backends.sim", VIEWS),
    # cycles, also through an import only for type checking or one inside a function
    "two core modules importing each other": Plant(
        {
            "core/planted.py": "import overlapviz.core.planted_too",
            "core/planted_too.py": "import overlapviz.core.planted",
        },
        frozenset({CYCLES}),
    ),
    "a cycle closed by a type-checking import": Plant(
        {
            "app/planted.py": "import overlapviz.app.planted_too",
            "app/planted_too.py": "import typing\nif typing.TYPE_CHECKING:\n    import overlapviz.app.planted",
        },
        frozenset({CYCLES}),
    ),
    "a cycle closed by an import inside a function": Plant(
        {
            "view/planted.py": "import overlapviz.view.planted_too",
            "view/planted_too.py": "def later() -> None:\n    import overlapviz.view.planted  # noqa: F401",
        },
        frozenset({CYCLES}),
    ),
    "a cycle between two packages, through modules of each": Plant(
        {
            "_qt/export/planted.py": "import overlapviz._qt.teaching",
            "_qt/teaching/planted.py": "import overlapviz._qt.export",
        },
        frozenset({CYCLES}),
    ),
    # indirect paths, each through a module that may import what the plant's first module may not
    "Qt through _qt from a command but app and pictures": Plant(
        {"_qt/planted.py": "from PySide6 import QtCore", "commands/analyze.py": "from overlapviz._qt import planted"},
        frozenset({QT}),
    ),
    # __main__ is in no layer; base imports core, so it reaches the commands and the registry too
    "core reaching the commands through __main__": Plant(
        {"core/planted.py": "import overlapviz.__main__", "backends/base.py": "from overlapviz.core import planted"},
        frozenset({LAYERS, BACKENDS, CYCLES}),
    ),
}


@pytest.fixture(scope="module")
def clean_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package and pyproject.toml, copied once (lint-imports caches by file and time)."""
    assert LINT_IMPORTS.is_file(), f"{LINT_IMPORTS} is missing: install the dev extra (import-linter)"
    copy = tmp_path_factory.mktemp("clean")
    shutil.copytree(ROOT / "overlapviz", copy / "overlapviz", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "pyproject.toml", copy / "pyproject.toml")
    return copy


def _lint(copy: Path) -> tuple[int, set[str], str]:
    """lint-imports on `copy`: its exit code, the contracts it broke, and all it printed."""
    done = subprocess.run(
        [str(LINT_IMPORTS), "--no-logo"],
        cwd=copy,
        env={**os.environ, "PYTHONPATH": str(copy)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    printed = done.stdout + done.stderr
    flat = " ".join(printed.split())  # the report wraps long names
    broken = {name for name in CONTRACTS if f"{name} BROKEN" in flat}
    return done.returncode, broken, printed


def test_the_package_as_it_is_keeps_every_contract(clean_copy):
    code, broken, printed = _lint(clean_copy)
    assert (code, broken) == (0, set()), printed
    flat = " ".join(printed.split())
    assert all(f"{name} KEPT" in flat for name in CONTRACTS), printed


@pytest.mark.parametrize("kind", list(PLANTS))
def test_a_planted_violation_breaks_the_contract_it_violates(clean_copy, tmp_path, kind):
    plant = PLANTS[kind]
    copy = tmp_path / "copy"
    shutil.copytree(clean_copy, copy)
    for module, line in plant.lines.items():
        target = copy / "overlapviz" / module
        old = target.read_text() if target.exists() else ""
        target.write_text(f"{old}\n{line}\n")
    code, broken, printed = _lint(copy)
    assert (code, broken) == (1, set(plant.breaks)), printed


def test_every_contract_is_broken_by_some_plant():
    assert set().union(*(plant.breaks for plant in PLANTS.values())) == set(CONTRACTS)
