"""An exercise's figures in words: ``makespan_ms`` as "makespan", 6.2 as "6.2 ms", goals as sentences.

Goals and predictions name the figures of ``overlapviz run --json`` (`overlapviz.exercises.figures`):
a key's ending gives its unit (``_ms``, ``_pct``, ``_gbps``, ``_bytes``), and the panel reads
them as the metrics panel names them where it has a name (`FIGURE_NAMES`).
"""

from __future__ import annotations

from overlapviz.core.analysis.metrics import FIGURE_NAMES
from overlapviz.core.config import format_size
from overlapviz.core.number_text import significant
from overlapviz.exercises import Goal, Limit

UNITS = (("_ms", "ms"), ("_pct", "%"), ("_gbps", "GB/s"))  # a figure's ending, and its unit
COMPARE_WORDS = {"<": "below", "<=": "at most", ">": "above", ">=": "at least", "==": "exactly"}
OWN_WORDS = {
    "makespan": "makespan", "serial": "serial time", "host_blocked": "host time blocked", "busy_ms": "busy time",
    "bandwidth_gbps": "bandwidth", "host_issue": "host time issuing", "host_alloc": "host time allocating",
    "speedup": "speed-up", "busy": "busy time", "count": "count", "utilisation": "utilisation",
    "migrations": "migrations",
}  # fmt: skip
PARTS = {"h2d": "H2D", "d2h": "D2H", "kernel": "kernel"}


def figure_unit(name: str) -> str:
    """The unit a figure is in: ``ms``, ``%``, ``GB/s``, ``×`` for the speed-up, "" for a count or a share."""
    leaf = name.rsplit(".", 1)[-1]
    head = name.split(".", 1)[0]
    for ending, unit in UNITS:
        if leaf.endswith(ending) or (head.endswith(ending) and "." in name):
            return unit
    return "\u00d7" if name == "speedup" else ""


def figure_words(name: str) -> str:
    """``copy_hidden_pct`` is "copy time hidden", ``busy_ms.h2d`` "H2D busy time"."""
    head, _, part = name.partition(".")
    if part.count("."):  # migrations.h2d.busy_ms: the H2D migrations' busy time
        direction, leaf = part.split(".", 1)
        return f"{PARTS.get(direction, direction)} {OWN_WORDS.get(head, head)}' {figure_words(leaf)}"
    stem = head.removesuffix("_ms").removesuffix("_pct").removesuffix("_gbps").removesuffix("_bytes")
    words = FIGURE_NAMES.get(stem) or OWN_WORDS.get(head) or OWN_WORDS.get(stem) or stem.replace("_", " ")
    return f"{PARTS.get(part, part)} {words}" if part else words


def value_text(name: str, value: float | None) -> str:
    """`value` of figure `name` with its unit: ``6.2 ms``, ``86.2 %``, ``2.62×``; a dash for none."""
    if value is None:
        return "\u2014"
    if name.endswith("_bytes"):
        return format_size(int(value))
    unit = figure_unit(name)
    if unit in ("", "\u00d7"):
        return f"{significant(value)}{unit}"
    return f"{significant(value)} {unit}"


def given_text(name: str, value: float) -> str:
    """A number a person wrote (a goal's, the learner's guess) as written, ``4 ms`` rather than ``4.00 ms``."""
    unit = figure_unit(name)
    return f"{value:g}{unit}" if unit in ("", "\u00d7") else f"{value:g} {unit}"


def goal_text(goal: Goal) -> str:
    """``copy time hidden at least 50 %``."""
    return f"{figure_words(goal.figure)} {COMPARE_WORDS[goal.compare]} {given_text(goal.figure, goal.value)}"


def limit_text(limit: Limit) -> str:
    """``keep iters exactly 1860``."""
    value = limit.value
    shown = format_size(value) if limit.setting == "size" and isinstance(value, int) else str(value)
    return f"keep {limit.setting} {COMPARE_WORDS[limit.compare]} {shown}"


def progress_text(done: int, count: int, score: float) -> str:
    """``2 of 3 done · score 2.5 / 3``."""
    return f"{done} of {count} done \u00b7 score {round(score, 1):g} / {count}"
