"""What the checks for unmarked sentences share: a module's string literals, and those never said to anyone.

Each check (the findings and what the window and the command line show; the importers, the lab
and the ranks; the Qt code) adds its own rules on what is said and what is exempt.
"""

import ast
from collections.abc import Iterator


def called(node: ast.Call) -> str | None:
    """The name a call is made by: ``_`` for ``_(...)``, ``setText`` for ``label.setText(...)``."""
    return node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)


def inside(node: ast.AST) -> set[int]:
    """The ids of `node` and everything in it."""
    return {id(child) for child in ast.walk(node)}


def never_said(tree: ast.Module) -> set[int]:
    """The literals no check counts: docstrings and dictionary keys (words to look things up by)."""
    exempt: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            exempt.add(id(first.value))
        if isinstance(node, ast.Dict):
            exempt |= {id(key) for key in node.keys if key is not None}
    return exempt


def string_literals(tree: ast.Module, exempt: set[int]) -> Iterator[ast.Constant]:
    """Every string constant of `tree` (f-strings' pieces too) not in `exempt`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in exempt:
            yield node
