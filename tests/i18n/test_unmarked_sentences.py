"""The finding modules say no English sentence that escapes translation.

Every literal of a finding module that reads as words (three or more of them) is either marked
(``_``, ``N_``, ``ncount``, ``ngettext``, ``pgettext``), a docstring, the docs' findings table
(a rule's ``fires_when`` and ``points_at``, English on purpose), a key to look words up by, or
a message for the program's developer (``raise``). Anything else would reach the learner in
English whatever the language asked for.
"""

import ast
import re
from pathlib import Path

from overlapviz.core.findings.finding import UNIT_NOUNS

PACKAGE = Path(__file__).resolve().parents[2] / "overlapviz"
FINDING_MODULES = [*sorted((PACKAGE / "core" / "findings").glob("*.py")), PACKAGE / "job" / "job_findings.py"]
MARKS = {"_", "N_", "ngettext", "ncount", "pgettext"}
DOCS_TABLE = {"fires_when", "points_at"}
WORDS = re.compile(r"[A-Za-z]{2,}(?: [A-Za-z]{2,}){2,}")
LOOKUP_KEYS = set(UNIT_NOUNS)  # the keys `unit_text` looks a unit's words up by, never shown themselves


def _inside(node: ast.AST) -> set[int]:
    return {id(child) for child in ast.walk(node)}


def exempt_literals(tree: ast.Module) -> set[int]:
    """The literals of `tree` that are not sentences said to the learner (see the module docstring)."""
    exempt: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            exempt.add(id(first.value))  # a docstring
        if isinstance(node, ast.Raise):
            exempt |= _inside(node)
        if isinstance(node, ast.Dict):
            exempt |= {id(key) for key in node.keys if key is not None}
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name in MARKS:
                exempt |= _inside(node)
            for keyword in node.keywords:
                if keyword.arg in DOCS_TABLE:
                    exempt |= _inside(keyword.value)
    return exempt


def unmarked_sentences(path: Path) -> list[str]:
    """``file:line: text`` of every literal of `path` that reads as words and is neither marked nor exempt."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    exempt = exempt_literals(tree)
    return [
        f"{path.name}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in exempt
        and node.value not in LOOKUP_KEYS and WORDS.search(node.value)
    ]  # fmt: skip


def test_the_scan_finds_an_unmarked_sentence(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text(
        '"""A module."""\n'
        'def rule(trace):\n'
        '    """Find it."""\n'
        '    marked = _("The host waited {ms} for the copies.")\n'
        '    return [Finding("code", f"The host waited {ms} for the copies.", rows)]\n'
    )
    found = unmarked_sentences(planted)
    assert found and {line.split(":")[1] for line in found} == {"5"}  # the f-string, not the marked sentence


def test_every_finding_module_marks_its_sentences():
    found = [line for path in FINDING_MODULES for line in unmarked_sentences(path)]
    assert found == [], "mark these for translation with _() or ncount():\n" + "\n".join(found)
