"""The colours of the timeline: one per op kind, the same in the app, the legend and exports.

The kinds use the Okabe-Ito palette (Okabe & Ito, "Color Universal Design", 2008), chosen so
that they stay distinct under the common forms of colour blindness. Waiting (ready -> start)
is the kind's colour, pale and hatched; host time blocked in a call is vermillion, the one
warm, saturated colour on the host lane, so it stands out against the grey of plain calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class SpanStyle(StrEnum):
    """How one span (or part of it) is painted."""

    H2D = "h2d"
    KERNEL = "kernel"
    D2H = "d2h"
    API = "api"  # a host API call that returned promptly
    BLOCKED = "blocked"  # a host API call in which the host thread waited for the device
    WAITING = "waiting"  # a device op whose stream reached it, waiting for its hardware


OKABE_ITO = {
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
    "grey": "#999999",
}

# Copies and kernels follow the hues Nsight Systems uses (H2D green, D2H pink, kernels blue),
# so a timeline reads the same in both tools.
KIND_COLOURS: dict[SpanStyle, str] = {
    SpanStyle.H2D: OKABE_ITO["bluish_green"],
    SpanStyle.KERNEL: OKABE_ITO["blue"],
    SpanStyle.D2H: OKABE_ITO["reddish_purple"],
    SpanStyle.API: OKABE_ITO["grey"],
    SpanStyle.BLOCKED: OKABE_ITO["vermillion"],
}

# The spans of a selected finding are outlined in the theme's text colour (see themes.py):
# black on light, white on dark, unlike any kind's colour.
WAITING_FILL_ALPHA = 0.3  # the pale body of a waiting span
WAITING_HATCH_ALPHA = 0.9  # its diagonal hatching, in the kind's own colour


@dataclass(frozen=True, slots=True)
class LegendEntry:
    """One swatch of the legend."""

    label: str
    colour: str
    waiting: bool = False


LEGEND: tuple[LegendEntry, ...] = (
    LegendEntry("H2D copy", KIND_COLOURS[SpanStyle.H2D]),
    LegendEntry("Kernel", KIND_COLOURS[SpanStyle.KERNEL]),
    LegendEntry("D2H copy", KIND_COLOURS[SpanStyle.D2H]),
    LegendEntry("Host API call", KIND_COLOURS[SpanStyle.API]),
    LegendEntry("Host blocked", KIND_COLOURS[SpanStyle.BLOCKED]),
    LegendEntry("Waiting (ready \u2192 start)", OKABE_ITO["grey"], waiting=True),
)
