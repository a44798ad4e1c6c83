"""The time window of a named range: an NVTX range, a ``record_function`` block, ``ProfilerStep#N``.

A program marks the part it cares about with a range; its name picks the window the figures
are computed over. ``NAME`` is the first range of that name (by start); ``NAME#k`` the k-th,
counted from 1, where no range is called ``NAME#k`` itself, so that PyTorch's
``ProfilerStep#3`` is the step of that name and ``ProfilerStep#3#2`` its second occurrence.
"""

from __future__ import annotations

import re

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.time_window import Window, WindowError
from overlapviz.core.i18n import _, grouped, ncount, pgettext
from overlapviz.core.trace.answer_cache import kept_per_trace
from overlapviz.core.trace.spans import OpKind, Trace

SHOWN_NAMES = 5  # names listed when none matches
_NTH = re.compile(r"^(?P<name>.+)#(?P<k>[0-9]+)$", re.DOTALL)


@kept_per_trace
def range_names(trace: Trace) -> tuple[str, ...]:
    """The distinct names of the trace's ranges, in the order they first start.

    Kept with the trace: the window menu asks on every show, on the GUI thread.
    """
    index = trace["name"][_ranges_by_start(trace)]
    _, first = np.unique(index, return_index=True)  # each name's first range, not every range's name
    return tuple(dict.fromkeys(trace.names[int(i)] for i in index[np.sort(first)]))


def range_window(trace: Trace, text: str) -> Window:
    """The window from the start to the end of the range `text` names (see the module docstring).

    Raises
    ------
    WindowError
        No range has that name (or that many occurrences); the message lists a few names
        that the trace does have.
    """
    rows = _ranges_by_start(trace)
    found = _matches(trace, rows, text)
    nth = _NTH.match(text)
    if found.size == 0 and nth is not None:
        k = int(nth["k"])
        found = _matches(trace, rows, nth["name"])
        if found.size and not 1 <= k <= found.size:
            message = ncount(
                "there is {count} range named {name}, so none is #{k} (count from 1)",
                "there are {count} ranges named {name}, so none is #{k} (count from 1)",
                int(found.size), name=_shown(nth["name"]), k=k,
            )  # fmt: skip
            raise WindowError(message)
        found = found[k - 1 : k]
    if found.size == 0:
        raise WindowError(_("no range is named {name}; {names}").format(name=_shown(text), names=_which_exist(trace)))
    row = int(found[0])
    return Window(int(trace["start_ns"][row]), int(trace["end_ns"][row]))


def _ranges_by_start(trace: Trace) -> npt.NDArray[np.intp]:
    rows = np.flatnonzero(trace.mask(OpKind.ANNOTATION))
    return rows[np.argsort(trace["start_ns"][rows], kind="stable")]


def _matches(trace: Trace, rows: npt.NDArray[np.intp], name: str) -> npt.NDArray[np.intp]:
    index = {text: i for i, text in enumerate(trace.names)}.get(name)
    return rows[trace["name"][rows] == index] if index is not None else rows[:0]


def _which_exist(trace: Trace) -> str:
    names = range_names(trace)
    if not names:
        return _("this trace has no named ranges (NVTX, record_function, ProfilerStep#N)")
    shown = pgettext("list", ", ").join(_shown(name) for name in names[:SHOWN_NAMES])
    if len(names) > SHOWN_NAMES:
        return _("the trace has {names} and {more} more").format(names=shown, more=grouped(len(names) - SHOWN_NAMES))
    return _("the trace has {names}").format(names=shown)


def _shown(name: str) -> str:
    """A name for a one-line message: quoted, cut short, no line breaks."""
    return repr(name if len(name) <= 60 else name[:57] + "...")
