"""The colours of the timeline: one per op kind, the same in the app, the legend and exports.

The kinds use the Okabe-Ito palette (Okabe & Ito, "Color Universal Design", 2008), chosen so
that they stay distinct under the common forms of colour blindness. Waiting (ready -> start)
is the kind's colour, pale and hatched; host time blocked in a call is vermillion, the one
warm, saturated colour on the host lane, so it stands out against the grey of plain calls.

Work that is not the pipeline's takes the three Okabe-Ito hues left (memsets yellow, copies
within a GPU sky blue, copies between GPUs orange) and, for unified-memory migrations, the
dark "wine" of Paul Tol's muted scheme (Tol, "Colour Schemes", SRON/EPS/TN/09-002, 2021),
also chosen to stay distinct under colour blindness. Two more of that scheme mark what some
kinds of host memory add: managed prefetches the program issued are its "olive", the host
thread's own copies through a staging ring its "indigo", dark beside the grey calls on the
host lane. Communication between GPUs (NCCL, RCCL kernels) is the scheme's "rose": a warm
colour in the lane below the blue of the compute it is weighed against. Annotation ranges are the light grey of
Tol's bright scheme, a background for the names written on them, in a lane of their own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from overlapviz.core.i18n import N_, _


class SpanStyle(StrEnum):
    """How one span (or part of it) is painted."""

    H2D = "h2d"
    KERNEL = "kernel"
    D2H = "d2h"
    API = "api"  # a host API call that returned promptly
    BLOCKED = "blocked"  # a host API call in which the host thread waited for the device
    WAITING = "waiting"  # a device op whose stream reached it, waiting for its hardware
    MEMSET = "memset"
    D2D = "d2d"  # a copy within one GPU's memory
    PEER = "peer"  # a copy from one GPU's memory to another's
    MIGRATION = "migration"  # unified memory: pages the driver moved
    ANNOTATION = "annotation"  # a named range (NVTX, record_function)
    PREFETCH = "prefetch"  # managed pages the program moved (cudaMemPrefetchAsync)
    HOST_COPY = "host-copy"  # the host thread's memcpy into or out of a pinned staging slot
    COMMUNICATION = "communication"  # an NCCL or RCCL kernel: data between GPUs, not compute


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
    SpanStyle.MEMSET: OKABE_ITO["yellow"],
    SpanStyle.D2D: OKABE_ITO["sky_blue"],
    SpanStyle.PEER: OKABE_ITO["orange"],
    SpanStyle.MIGRATION: "#882255",  # Tol's muted "wine"
    SpanStyle.ANNOTATION: "#BBBBBB",  # the grey of Tol's bright scheme
    SpanStyle.PREFETCH: "#999933",  # Tol's muted "olive"
    SpanStyle.HOST_COPY: "#332288",  # Tol's muted "indigo"
    SpanStyle.COMMUNICATION: "#CC6677",  # Tol's muted "rose"
}
ANNOTATION_TEXT = "#1F2328"  # the names on annotation ranges: dark on their pale fill in every theme

# The spans of a selected finding are outlined in the theme's text colour (see themes.py):
# black on light, white on dark, unlike any kind's colour.
WAITING_FILL_ALPHA = 0.3  # the pale body of a waiting span
WAITING_HATCH_ALPHA = 0.9  # its diagonal hatching, in the kind's own colour


@dataclass(frozen=True, slots=True)
class LegendEntry:
    """One swatch of the legend: its words as written (marked with `N_`), said as `label`."""

    words: str
    colour: str
    waiting: bool = False

    @property
    def label(self) -> str:
        """The swatch's words in the active language."""
        return _(self.words)


LEGEND: tuple[LegendEntry, ...] = (
    LegendEntry(N_("H2D copy"), KIND_COLOURS[SpanStyle.H2D]),
    LegendEntry(N_("Kernel"), KIND_COLOURS[SpanStyle.KERNEL]),
    LegendEntry(N_("D2H copy"), KIND_COLOURS[SpanStyle.D2H]),
    LegendEntry(N_("Host API call"), KIND_COLOURS[SpanStyle.API]),
    LegendEntry(N_("Host blocked"), KIND_COLOURS[SpanStyle.BLOCKED]),
    LegendEntry(N_("Waiting (ready \u2192 start)"), OKABE_ITO["grey"], waiting=True),
)
# Named only where a trace has them: most runs have none, and a key of swatches a picture
# does not show would only be read for what is not there.
OPTIONAL_LEGEND: dict[SpanStyle, LegendEntry] = {
    SpanStyle.MEMSET: LegendEntry(N_("Memset"), KIND_COLOURS[SpanStyle.MEMSET]),
    SpanStyle.D2D: LegendEntry(N_("D2D copy"), KIND_COLOURS[SpanStyle.D2D]),
    SpanStyle.PEER: LegendEntry(N_("Peer copy"), KIND_COLOURS[SpanStyle.PEER]),
    SpanStyle.MIGRATION: LegendEntry(N_("Unified-memory migration"), KIND_COLOURS[SpanStyle.MIGRATION]),
    SpanStyle.ANNOTATION: LegendEntry(N_("Range (NVTX, record_function)"), KIND_COLOURS[SpanStyle.ANNOTATION]),
    SpanStyle.PREFETCH: LegendEntry(N_("Prefetch (managed memory)"), KIND_COLOURS[SpanStyle.PREFETCH]),
    SpanStyle.HOST_COPY: LegendEntry(N_("Host copy (staging ring)"), KIND_COLOURS[SpanStyle.HOST_COPY]),
    SpanStyle.COMMUNICATION: LegendEntry(N_("Communication (NCCL)"), KIND_COLOURS[SpanStyle.COMMUNICATION]),
}


def legend_for(styles: Iterable[SpanStyle]) -> tuple[LegendEntry, ...]:
    """The legend of a picture whose spans are painted in `styles`: the usual key, then the other kinds present."""
    present = set(styles)
    return LEGEND + tuple(entry for style, entry in OPTIONAL_LEGEND.items() if style in present)
