"""Which GPUs a timeline draws: the first `DRAWN_GPUS`, and one line that sums up the rest.

A picture has room for the lanes of a few GPUs; a trace of a thousand would be a picture of
tens of thousands of lanes, none of them readable, that takes a minute to draw. The first
GPUs (by index) are drawn; the rest are named in one header line below them, as short as a
lane's title, since the titles' column is as wide as its longest. Their figures and findings
are still worked out, and the metrics panel shows each GPU's when it is chosen in its GPU
list. Pure: no Qt here.
"""

from __future__ import annotations

from collections.abc import Sequence

from overlapviz.core.i18n import _, ncount
from overlapviz.core.trace.lanes import Lane, gpus_of, lanes_of
from overlapviz.core.trace.spans import Trace

DRAWN_GPUS = 8


def gpus_not_drawn(trace: Trace) -> tuple[int, ...]:
    """The GPUs of `trace` past the first `DRAWN_GPUS`, whose lanes are not drawn."""
    return gpus_of(trace)[DRAWN_GPUS:]


def lanes_drawn(trace: Trace) -> list[Lane]:
    """The lanes of `trace` (`lanes_of`) but those of the GPUs not drawn."""
    hidden = set(gpus_not_drawn(trace))
    return [lane for lane in lanes_of(trace) if lane.device not in hidden]


def not_drawn_title(hidden: Sequence[int]) -> str:
    """The one line that stands for the GPUs not drawn: how many, and which, in few words."""
    if len(hidden) == 1:
        return _("1 more GPU ({gpu}), not drawn").format(gpu=hidden[0])
    return ncount(
        "{count} more GPU ({first} to {last}), not drawn",
        "{count} more GPUs ({first} to {last}), not drawn",
        len(hidden),
        first=hidden[0],
        last=hidden[-1],
    )
