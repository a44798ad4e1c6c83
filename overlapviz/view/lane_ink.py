"""Where each layer's ink bars start in its lane: the layers of one lane stacked, bottom up.

Where spans are narrower than a pixel, each layer draws, per pixel column, a bar as tall as
the share of the column's time it keeps busy (`core.analysis.lod`). A stream lane holds copies and
kernels, a host lane calls and the host's own copies, each a layer of its own: drawn from
the lane's bottom, the later bar would hide the earlier, so a lane's layers stack in paint
order and the column shows each kind's share and their sum. Host time blocked is part of a
call's time, so its bar is drawn over the calls' bar (from where that starts) and adds
nothing. Pure: no Qt here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from overlapviz.core.i18n import N_, _
from overlapviz.view.formatting import format_percent
from overlapviz.view.palette import SpanStyle

FloatArray = npt.NDArray[np.float64]
# The legend's tooltip, said with `_` where shown (the glossary quotes it in English, its source)
INK_MEANING = N_(
    "Where spans are narrower than a pixel, the height of the colour shows the share of the time busy:"
    " a column a third full was busy a third of its time."
)
NOT_BUSY = {SpanStyle.WAITING}  # ink that is not the lane's own work: an op waiting for its hardware
PAINTED_OVER = {SpanStyle.BLOCKED: SpanStyle.API}  # a style whose time is part of another's, drawn over it


def ink_bases(layers: Sequence[tuple[str, SpanStyle, FloatArray]]) -> list[FloatArray]:
    """For each (lane key, style, ink) layer, in paint order, the ink already stacked below it in its lane.

    Every layer's ink has one value per column of the same window.
    """
    tops: dict[str, FloatArray] = {}
    bases_of_style: dict[tuple[str, SpanStyle], FloatArray] = {}
    bases: list[FloatArray] = []
    nothing = nothing_below(len(layers[0][2]) if layers else 0)
    for lane_key, style, ink in layers:
        below = PAINTED_OVER.get(style)
        top = tops.get(lane_key, nothing)
        base = bases_of_style.get((lane_key, below), nothing) if below is not None else top
        if below is None:
            bases_of_style.setdefault((lane_key, style), top)
            tops[lane_key] = top + ink
        bases.append(base)
    return bases


def nothing_below(columns: int) -> FloatArray:
    """The base of a lane's first layer: no ink in any of `columns` (read-only, shared by every such layer)."""
    nothing = np.zeros(columns)
    nothing.flags.writeable = False
    return nothing


def column_text(share: float) -> str:
    """What a pixel column of ink means, for a tooltip: `share` (0 to 1) of its time busy."""
    return _("This pixel column: {percent} busy with ops narrower than a pixel (zoom in to see them)").format(
        percent=format_percent(100 * share)
    )
