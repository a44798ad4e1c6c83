"""The modules whose words the window and the command line show say no English sentence that escapes translation.

Every literal of those modules that reads as words (three or more of them) is either marked
(``_``, ``N_``, ``ncount``, ``ngettext``, ``pgettext``), a docstring, English on purpose (the
docs' tables: a finding rule's ``fires_when`` and ``points_at``, a setting's ``doc``, a preset's
keys; the notes a calibrated profile's file carries for every reader of it; the names of the
pipeline's ops in a trace, data as CUDA's names are), a key to look words up by, or a message
for the program's developer: a ``raise`` of one of Python's own errors, which the program raises
for a mistake in its code, or catches and words itself. What reaches the user is raised as one
of overlapviz's own errors (``ConfigError``, ``PresetError``, ``BackendError``, ``WindowError``,
...), so its words are checked. The glossary is teaching content, translated by the content
catalogue as the lessons are (docs/translating.md), and is left to that catalogue's own checks.
Anything else would reach the learner in English whatever the language asked for.
"""

import ast
import builtins
import re
from pathlib import Path

from literal_scan import called, inside, never_said, string_literals

from overlapviz.core.findings.finding import UNIT_NOUNS

PACKAGE = Path(__file__).resolve().parents[2] / "overlapviz"
FINDING_MODULES = [*sorted((PACKAGE / "core" / "findings").glob("*.py")), PACKAGE / "job" / "job_findings.py"]
# Where the window's and the command line's words are written, beside the findings
SHOWN_FOLDERS = ("view", "app", "commands", "core/analysis", "core/config", "core/devices", "core/files", "core/trace")
SHOWN_FILES = ("presets.py", "run_report.py", "session.py", "backends/registry.py")
CONTENT_MODULES = {PACKAGE / "app" / "glossary.py", PACKAGE / "app" / "glossary_findings.py"}
SHOWN_MODULES = sorted(
    {*(path for folder in ("core", *SHOWN_FOLDERS) for path in (PACKAGE / folder).glob("*.py")),
     *(PACKAGE / name for name in SHOWN_FILES)} - CONTENT_MODULES
)  # fmt: skip
MARKS = {"_", "N_", "ngettext", "ncount", "pgettext"}
DOCS_KEYWORDS = {"fires_when", "points_at", "doc"}  # English on purpose: the docs' tables
# English on purpose, by the name of the table or function that holds it
ENGLISH_NAMES = {
    "SIDE_KEYS",  # the docs' table of a preset's keys (docs/make_presets_table.py)
    "profile_text",  # a calibrated profile's notes, in its file
    "HOST_READ_NAME", "PREFETCH_IN", "PREFETCH_OUT",  # ops' names in a trace: data, as CUDA's own names are
}  # fmt: skip
# Python's own errors: raised for a mistake in the code, or caught and said in other words; but
# an OSError (FileNotFoundError, PermissionError, ...), which carries a file's problem to the user
DEVELOPER_ERRORS = {
    name for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException) and not issubclass(value, OSError)
}  # fmt: skip
WORDS = re.compile(r"[A-Za-z]{2,}(?: [A-Za-z]{2,}){2,}")
LOOKUP_KEYS = set(UNIT_NOUNS)  # the keys `unit_text` looks a unit's words up by, never shown themselves


def _developer_error(node: ast.Raise) -> bool:
    """Whether `node` raises one of Python's own errors (see the module docstring)."""
    raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
    return isinstance(raised, ast.Name) and raised.id in DEVELOPER_ERRORS


def exempt_literals(tree: ast.Module) -> set[int]:
    """The literals of `tree` that are not sentences said to the learner (see the module docstring)."""
    exempt = never_said(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and _developer_error(node):
            exempt |= inside(node)
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(target, ast.Name) and target.id in ENGLISH_NAMES for target in targets):
                exempt |= inside(node)
        if isinstance(node, ast.FunctionDef) and node.name in ENGLISH_NAMES:
            exempt |= inside(node)
        if isinstance(node, ast.Call):
            if called(node) in MARKS:
                exempt |= inside(node)
            for keyword in node.keywords:
                if keyword.arg in DOCS_KEYWORDS:
                    exempt |= inside(keyword.value)
    return exempt


def unmarked_sentences(path: Path) -> list[str]:
    """``file:line: text`` of every literal of `path` that reads as words and is neither marked nor exempt."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    exempt = exempt_literals(tree)
    return [
        f"{path.relative_to(path.parents[1])}:{node.lineno}: {node.value!r}"
        for node in string_literals(tree, exempt)
        if node.value not in LOOKUP_KEYS and WORDS.search(node.value)
    ]


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


def test_the_scan_checks_what_is_raised_to_the_user_and_leaves_developer_errors(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text(
        '"""A module."""\n'
        'def check(value):\n'
        '    if value is None:\n'
        '        raise TypeError(f"check got no value at all")\n'
        '    if value < 0:\n'
        '        raise ConfigError("size", f"{value} is far too small")\n'
        '    raise ConfigError("size", _("{value} is far too large").format(value=value))\n'
    )
    found = unmarked_sentences(planted)
    assert [line.split(":")[1] for line in found] == ["6"]  # the user's error, unmarked; not the TypeError


def test_the_scan_leaves_the_docs_english(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text(
        'SETTING = Setting("size", help=N_("total size of the data"), doc="total size of the data, in bytes")\n'
        'SIDE_KEYS = {"label": ("the name of that side", "the title of it")}\n'
        'OTHER = {"label": ("the name of that side", "the title of it")}\n'
    )
    found = unmarked_sentences(planted)
    assert {line.split(":")[1] for line in found} == {"3"}  # the table the docs are not written from


def test_every_finding_module_marks_its_sentences():
    found = [line for path in FINDING_MODULES for line in unmarked_sentences(path)]
    assert found == [], "mark these for translation with _() or ncount():\n" + "\n".join(found)


def test_the_window_and_the_command_line_mark_their_sentences():
    assert len(SHOWN_MODULES) > 100  # the folders are there: the scan reads what the program shows
    found = [line for path in SHOWN_MODULES for line in unmarked_sentences(path)]
    assert found == [], "mark these for translation with _(), N_() or ncount():\n" + "\n".join(found)
