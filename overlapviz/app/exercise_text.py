"""An exercise's figures in words: ``makespan_ms`` as "makespan", 6.2 as "6.2 ms", goals as sentences.

Goals and predictions name the figures of ``overlapviz run --json`` (`overlapviz.exercises.figures`):
a key's ending gives its unit (``_ms``, ``_pct``, ``_gbps``, ``_bytes``), and the panel reads
them as the metrics panel names them where it has a name (`FIGURE_NAMES`).
"""

from __future__ import annotations

from overlapviz.core.analysis.metrics import FIGURE_NAMES
from overlapviz.core.config import format_size
from overlapviz.core.i18n import N_, _
from overlapviz.core.number_text import significant
from overlapviz.exercises import Goal, Limit

UNITS = (("_ms", "ms"), ("_pct", "%"), ("_gbps", "GB/s"))  # a figure's ending, and its unit
# A goal and a limit as a sentence, by how it compares (each said in the active language where shown)
GOAL_SENTENCES = {
    "<": N_("{figure} below {value}"), "<=": N_("{figure} at most {value}"), ">": N_("{figure} above {value}"),
    ">=": N_("{figure} at least {value}"), "==": N_("{figure} exactly {value}"),
}  # fmt: skip
LIMIT_SENTENCES = {
    "<": N_("keep {setting} below {value}"), "<=": N_("keep {setting} at most {value}"),
    ">": N_("keep {setting} above {value}"), ">=": N_("keep {setting} at least {value}"),
    "==": N_("keep {setting} exactly {value}"),
}  # fmt: skip
OWN_WORDS = {
    "makespan": N_("makespan"), "serial": N_("serial time"), "host_blocked": N_("host time blocked"),
    "busy_ms": N_("busy time"), "bandwidth_gbps": N_("bandwidth"), "host_issue": N_("host time issuing"),
    "host_alloc": N_("host time allocating"), "speedup": N_("speed-up"), "busy": N_("busy time"),
    "count": N_("count"), "utilisation": N_("utilisation"), "migrations": N_("migrations"),
}  # fmt: skip
PARTS = {"h2d": "H2D", "d2h": "D2H", "kernel": N_("kernel")}


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
    head, _dot, part = name.partition(".")
    if part.count("."):  # migrations.h2d.busy_ms: the H2D migrations' busy time
        direction, leaf = part.split(".", 1)
        return _("{part} {whole}' {figure}").format(
            part=_part_words(direction), whole=_own_words(head) or head, figure=figure_words(leaf)
        )
    stem = head.removesuffix("_ms").removesuffix("_pct").removesuffix("_gbps").removesuffix("_bytes")
    words = FIGURE_NAMES.get(stem) or _own_words(head) or _own_words(stem) or stem.replace("_", " ")
    return _("{part} {figure}").format(part=_part_words(part), figure=words) if part else words


def _own_words(key: str) -> str | None:
    words = OWN_WORDS.get(key)
    return None if words is None else _(words)


def _part_words(part: str) -> str:
    """A figure's part in words: a direction as written (``H2D``), the kernel's in the active language."""
    words = PARTS.get(part)
    return part if words is None else _(words)


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
    return _(GOAL_SENTENCES[goal.compare]).format(
        figure=figure_words(goal.figure), value=given_text(goal.figure, goal.value)
    )


def limit_text(limit: Limit) -> str:
    """``keep iters exactly 1860``."""
    value = limit.value
    shown = format_size(value) if limit.setting == "size" and isinstance(value, int) else str(value)
    return _(LIMIT_SENTENCES[limit.compare]).format(setting=limit.setting, value=shown)


def progress_text(done: int, count: int, score: float) -> str:
    """``2 of 3 done · score 2.5 / 3``."""
    return _("{done} of {count} done \u00b7 score {score} / {count}").format(
        done=done, count=count, score=f"{round(score, 1):g}"
    )
