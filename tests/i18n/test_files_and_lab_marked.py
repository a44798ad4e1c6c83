"""The importers, the lab and a job's ranks say no English sentence that escapes translation.

Their sentences reach the user as a file's refusal, a lab client's or server's line, or a
rank's problem, mostly raised, and a ``ValueError`` among them as much as their own errors:
so, unlike `test_unmarked_sentences` (which checks overlapviz's own file readers, in
core/files), no ``raise`` is exempt here. A literal that reads as words (three or more, "a"
among them) is marked, a docstring, a key, or one of the few said to no one, each named below
with why. And a marked sentence is translated when it is said, never once at import (a
module-level ``_()`` would keep the language of the moment the module was first imported).
"""

import ast
import re
from pathlib import Path

from literal_scan import called, inside, never_said, string_literals
from test_unmarked_sentences import MARKS

from overlapviz.core.number_text import COUNTED_LABELS

PACKAGE = Path(__file__).resolve().parents[2] / "overlapviz"
MODULES = sorted(path for folder in ("importers", "lab", "job") for path in (PACKAGE / folder).rglob("*.py"))
WORDS = re.compile(r"[A-Za-z]+(?:[ '][A-Za-z]+){2,}")  # three words or more, "a" and "it's" among them
SQL = re.compile(r"\b(SELECT|FROM|WHERE|ORDER BY|IS NOT NULL|CASE WHEN)\b")
# Literals that read as words but are said to no one, each with why.
NOT_SAID = {
    "overlapviz join code\n": "the salt a join code is hashed with",
    "pip install overlapviz[lab-queue]": "a command to type",
    "Stream wait event": "a synchronisation's name, written into the trace as its span's name",
    "demangledName or shortName": "the columns a kernel's name is read from, in a damaged export's message",
    "not a number": "MicrosTextError's code, which the Kineto reader turns into a sentence",
    "out of range": "MicrosTextError's code, which the Kineto reader turns into a sentence",
}
NOT_SAID_KEYWORDS = {"name"}  # a thread's name, a JSON field's name
SAYING = MARKS - {"N_"}  # the calls that translate now; N_ only marks


def _shown(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix() if path.is_relative_to(PACKAGE) else path.name


def not_sentences(tree: ast.Module) -> set[int]:
    """The literals of `tree` that are no sentence said to the user (see the module docstring)."""
    exempt = never_said(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if called(node) in MARKS:
                exempt |= inside(node)
            for keyword in node.keywords:
                if keyword.arg in NOT_SAID_KEYWORDS:
                    exempt |= inside(keyword.value)
    return exempt


def unmarked(path: Path) -> list[str]:
    """``file:line: text`` of every literal of `path` that reads as words and is neither marked nor exempt."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    exempt = not_sentences(tree)
    return [
        f"{_shown(path)}:{node.lineno}: {node.value!r}"
        for node in string_literals(tree, exempt)
        if WORDS.search(node.value) and not SQL.search(node.value)
        and node.value not in NOT_SAID and node.value not in COUNTED_LABELS
    ]  # fmt: skip


def said_at_import(path: Path) -> list[str]:
    """``file:line`` of every translating call of `path` that runs when the module is imported."""
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            return  # runs when called
        if isinstance(node, ast.Call) and called(node) in SAYING:
            found.append(f"{_shown(path)}:{node.lineno}")
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def test_the_scan_finds_a_raised_sentence_left_unmarked(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text(
        '"""A reader."""\n'
        'def read(path):\n'
        '    """Read it."""\n'
        '    marked = _("{file}: not a JSON file").format(file=path)\n'
        '    raise TraceFormatError(f"{path}: not a JSON file")\n'
    )
    found = [line.split(":")[1] for line in unmarked(planted)]
    assert found == ["5"]  # the raised f-string's words, not the marked sentence


def test_the_scan_finds_a_sentence_translated_at_import(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text(
        'REFUSED = _("not a trace")\n'
        'KEPT = N_("not a session")\n'
        'def refused():\n'
        '    return _(KEPT)\n'
        'class Reader:\n'
        '    WORDS = ngettext("{n} row", "{n} rows", 2)\n'
    )
    assert [line.rsplit(":", 1)[1] for line in said_at_import(planted)] == ["1", "6"]


def test_the_modules_are_found():
    names = {path.relative_to(PACKAGE).as_posix() for path in MODULES}
    assert {"importers/nsys.py", "lab/client_status.py", "lab/http_app.py", "job/worker.py"} <= names


def test_every_sentence_of_the_files_the_lab_and_the_ranks_is_marked():
    found = [line for path in MODULES for line in unmarked(path)]
    message = "mark these for translation with _(), or say here why they are said to no one:\n"
    assert found == [], message + "\n".join(found)


def test_no_sentence_is_translated_at_import():
    found = [line for path in MODULES for line in said_at_import(path)]
    assert found == [], "mark these with N_() and translate with _() where they are said:\n" + "\n".join(found)
