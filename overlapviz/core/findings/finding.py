"""A finding, and the words every rule writes its numbers in."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.core.i18n import N_, _, ngettext
from overlapviz.core.number_text import duration_text, fixed, series_text
from overlapviz.core.trace.frozen_columns import distinct
from overlapviz.core.trace.lanes import gpus_of
from overlapviz.core.trace.spans import Trace

Rows = npt.NDArray[np.int64]

_API_VERSION_SUFFIX = re.compile(r"_v\d+$")  # CUPTI names calls like cudaMemcpyAsync_v3020
# The units a finding names, each with its plural: the words `unit_text` says them in.
UNIT_NOUNS = {
    "compute unit": (N_("compute unit"), N_("compute units")),
    "copy engine": (N_("copy engine"), N_("copy engines")),
    "single copy engine": (N_("single copy engine"), N_("single copy engines")),
    "H2D engine": (N_("H2D engine"), N_("H2D engines")),
    "D2H engine": (N_("D2H engine"), N_("D2H engines")),
}


@dataclass(frozen=True, slots=True, eq=False)
class Finding:
    """One explanation: a stable code, a sentence with its numbers, the rows it points at.

    `rows` are trace rows, sorted, each once, kept as a read-only array: a finding about
    every call of a 10^6-span trace points at 10^6 rows, and as many Python integers would
    take seconds to make and tens of milliseconds to free, in calls that hold Python's lock.
    """

    code: str
    message: str
    rows: Rows

    def __post_init__(self) -> None:
        rows = np.array(self.rows, dtype=np.int64, ndmin=1)  # a copy: the caller keeps its own
        rows.flags.writeable = False
        object.__setattr__(self, "rows", rows)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Finding):
            return NotImplemented
        return (self.code, self.message) == (other.code, other.message) and np.array_equal(self.rows, other.rows)

    def __hash__(self) -> int:
        return hash((self.code, self.message, len(self.rows)))


def api_name(trace: Trace, row: int) -> str:
    """The API call's name without CUPTI's version suffix."""
    return plain_api_name(trace.name_of(row))


def api_names(trace: Trace, rows: npt.NDArray[np.integer[Any]]) -> set[str]:
    """The distinct names of the API calls `rows`, without CUPTI's version suffix."""
    return {plain_api_name(trace.names[int(index)]) for index in np.unique(trace["name"][rows])}


def plain_api_name(name: str) -> str:
    """``cudaMemcpyAsync_v3020`` -> ``cudaMemcpyAsync``."""
    return _API_VERSION_SUFFIX.sub("", name)


def rows_of(*groups: npt.ArrayLike) -> Rows:
    """The rows of every group, once each, in order: what a finding points at."""
    parts = [np.asarray(group, dtype=np.int64).ravel() for group in groups]
    if not parts:
        return np.zeros(0, dtype=np.int64)
    joined = np.concatenate(parts)
    if joined.size < 2 or bool((joined[1:] > joined[:-1]).all()):  # in order and once each already: no sort
        return joined
    rows: Rows = distinct(joined)
    return rows


def ms_text(ns: float) -> str:
    """A time to the figures' rule (`number_text.duration_text`): ``6.09 ms``, ``5.70 µs``."""
    return duration_text(ns)


def pct_text(part: float, whole: float) -> str:
    """`part` as a whole percentage of `whole` (``0%`` of nothing)."""
    return _("{percent}%").format(percent=fixed(100 * part / whole, 0) if whole > 0 else "0")


def unit_text(trace: Trace, unit: str, rows: npt.ArrayLike, *, units: int = 1) -> tuple[str, bool]:
    """``the H2D engine`` that ran `rows`, naming its GPU where the trace has several.

    `unit` is a key of `UNIT_NOUNS`; `units` above 1 names several of one GPU (``the copy
    engines``). Returns the words (``the H2D engine of GPU 1``, ``the H2D engines of GPUs 0 and
    1``) and whether they name more than one unit, for the verb that follows.
    """
    singular, plural = UNIT_NOUNS[unit]
    if len(gpus_of(trace)) < 2:
        return _("the {unit}").format(unit=ngettext(singular, plural, units)), units > 1
    on = [int(device) for device in distinct(trace["device"][np.asarray(rows, dtype=np.int64)])]
    if len(on) == 1:
        return _("the {unit} of GPU {gpu}").format(unit=ngettext(singular, plural, units), gpu=on[0]), units > 1
    gpus = series_text([str(device) for device in on])
    return _("the {units} of GPUs {gpus}").format(units=ngettext(singular, plural, len(on)), gpus=gpus), True
