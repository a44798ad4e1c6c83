"""Unified-memory migrations: the pages the driver moved between host and device, by direction.

Another tool's trace records each migration as a copy of its own kind (Nsight Systems' copy
kinds ``UVM_HTOD`` and ``UVM_DTOH``), which the importer makes an `OpKind.MIGRATION` named
by `migration_name`: ``Unified memory HtoD``, ``Unified memory DtoH`` (``DtoD`` within a
GPU). The name is where the direction is kept, and this module the one place that reads it
back. Migrations are transfers like copies (bytes over the link, time the program waits
for), but the program issued none of them: the GPU or the host touched a page that was on
the other side, and the driver moved it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.core.i18n import N_, _, grouped, ncount, pgettext
from overlapviz.core.trace.spans import OpKind, Trace

MIGRATION_PREFIX = "Unified memory"
# The direction of a migration as its name spells it, and the key it has in the figures.
_DIRECTION_WORDS = {"h2d": "HtoD", "d2h": "DtoH"}
DIRECTION_KEYS = tuple(_DIRECTION_WORDS)


def migration_name(direction_word: str) -> str:
    """A migration's name, given its direction as Nsight spells it (``HtoD``, ``DtoH``, ``DtoD``)."""
    return f"{MIGRATION_PREFIX} {direction_word}"


@dataclass(frozen=True, slots=True)
class Moved:
    """The migrations of one direction: how many, their summed time, their bytes."""

    count: int
    busy_ns: int
    bytes: int

    @property
    def bandwidth_gbps(self) -> float | None:
        """Bytes over busy time in GB/s; None without time or without recorded bytes."""
        return self.bytes / self.busy_ns if self.busy_ns > 0 and self.bytes > 0 else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``count``, ``busy_ms``, ``bytes``, ``bandwidth_gbps``."""
        return {
            "count": self.count,
            "busy_ms": round(self.busy_ns / 1e6, 6),
            "bytes": self.bytes,
            "bandwidth_gbps": self.bandwidth_gbps,
        }


def migration_rows(trace: Trace, key: str) -> npt.NDArray[np.bool_]:
    """The migrations of one direction (``"h2d"`` or ``"d2h"``), by the name the importer gave them."""
    name = migration_name(_DIRECTION_WORDS[key])
    if name not in trace.names:
        return np.zeros(len(trace), dtype=bool)
    rows: npt.NDArray[np.bool_] = trace.mask(OpKind.MIGRATION) & (trace["name"] == trace.names.index(name))
    return rows


def migrations_by_direction(trace: Trace) -> dict[str, Moved]:
    """The migrations of each direction (`DIRECTION_KEYS`), none where the trace has none."""
    moved = {}
    for key in DIRECTION_KEYS:
        rows = migration_rows(trace, key)
        moved[key] = Moved(int(rows.sum()), int(trace.durations_of(rows).sum()), int(trace["bytes"][rows].sum()))
    return moved


NO_COPIES = N_("no copies")  # the copy time hidden of a run without copies


def no_copies_text(moved: Mapping[str, Moved]) -> str:
    """What a run without copies shows for copy time hidden: ``no copies``, and its migrations where it had some.

    A program on managed memory issues no copy, yet the driver moves its pages: saying
    "no copies" alone would hide them.
    """
    count = sum(m.count for m in moved.values())
    if not count:
        return _(NO_COPIES)
    return _("{no_copies}; {migrations}").format(no_copies=_(NO_COPIES), migrations=_migrations_text(count))


def _migrations_text(count: int) -> str:
    return ncount("{count} unified-memory migration", "{count} unified-memory migrations", count)


def migrations_text(moved: Mapping[str, Moved]) -> str | None:
    """``1,792 unified-memory migrations (H2D 1,024, D2H 768)``; None without any."""
    counts = {key: m.count for key, m in moved.items() if m.count}
    if not counts:
        return None
    each = pgettext("list", ", ").join(f"{key.upper()} {grouped(count)}" for key, count in counts.items())
    return f"{_migrations_text(sum(counts.values()))} ({each})"
