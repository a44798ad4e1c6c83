"""What real machines measured for pageable copies, beside the one set of rates the model uses.

The driver stages a pageable copy through its own pinned buffer, so its speed is set by the
host's memory system, and that differs between machines with the same GPU (and between
starts of one machine). The model copies at one measurement's rates (the profile's
``pageable_*_gbps``); what other measurements found is kept beside the profile, in
``profiles/measured/<key>.toml`` (table ``[pageable_spread]``), so that a model run can say
how far real runs stray from it.
"""

from __future__ import annotations

import functools
import math
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from overlapviz.core.config import ConfigError, PipelineConfig

MEASURED_DIR = Path(__file__).resolve().parent / "profiles" / "measured"
_SHIPPED_KEY = re.compile(r"[a-z0-9][a-z0-9-]*")  # a shipped profile's name, never a path


@dataclass(frozen=True, slots=True)
class PageableMeasurement:
    """One measurement of pageable memory on one real machine."""

    date: str  # ISO date of the measurement
    source: str  # which measurement: the file or tool, and what was run
    pipeline_ms: tuple[float, float]  # the fastest and the slowest run of the measured pipeline
    h2d_gbps: float  # one pageable H2D copy of `PageableSpread.copy_bytes`
    d2h_gbps: float  # the same, device to host


@dataclass(frozen=True, slots=True)
class PageableSpread:
    """The measured range of pageable times on real machines of one kind."""

    machines: str  # how a sentence names them, e.g. "H200 hosts"
    pipeline: PipelineConfig  # the pipeline whose makespans were measured
    copy_bytes: int  # the size of the single copies whose rates were measured
    measurements: tuple[PageableMeasurement, ...]

    @property
    def pipeline_ms(self) -> tuple[float, float]:
        """The fastest and the slowest run of `pipeline` over every measurement."""
        return min(m.pipeline_ms[0] for m in self.measurements), max(m.pipeline_ms[1] for m in self.measurements)

    @property
    def h2d_gbps(self) -> tuple[float, float]:
        """The lowest and the highest pageable H2D rate measured."""
        return _span(m.h2d_gbps for m in self.measurements)

    @property
    def d2h_gbps(self) -> tuple[float, float]:
        """The lowest and the highest pageable D2H rate measured."""
        return _span(m.d2h_gbps for m in self.measurements)

    @property
    def dates(self) -> tuple[str, ...]:
        """The days the measurements were taken, in order."""
        return tuple(sorted({m.date for m in self.measurements}))


@functools.cache
def measured_pageable_spread(key: str) -> PageableSpread | None:
    """The spread measured for the shipped profile `key`, or None where nothing was measured.

    Only shipped profiles have measurements; a what-if profile or a user's own file has none.
    A measurement file that does not read is a fault of the package: `ValueError` says why.
    """
    path = MEASURED_DIR / f"{key}.toml"
    if not _SHIPPED_KEY.fullmatch(key) or not path.is_file():
        return None
    with path.open("rb") as stream:
        table = tomllib.load(stream).get("pageable_spread")
    if table is None:
        return None
    try:
        return read_pageable_spread(table)
    except ValueError as error:
        raise ValueError(f"{path.name} [pageable_spread]: {error}") from None


def read_pageable_spread(table: object) -> PageableSpread:
    """Build a `PageableSpread` from its profile table; `ValueError` says what is wrong."""
    if not isinstance(table, Mapping):
        raise ValueError(f"must be a table, not {table!r}")
    _only_keys(table, {"machines", "pipeline", "copy_bytes", "measured"}, "")
    pipeline = _value(table, "pipeline", "")
    if not isinstance(pipeline, Mapping):
        raise ValueError(f"pipeline must be a table of pipeline settings, not {pipeline!r}")
    try:
        config = PipelineConfig.from_dict(dict(pipeline))
    except (ConfigError, TypeError) as error:
        raise ValueError(f"pipeline: {error}") from None
    copy_bytes = _value(table, "copy_bytes", "")
    if isinstance(copy_bytes, bool) or not isinstance(copy_bytes, int) or copy_bytes <= 0:
        raise ValueError(f"copy_bytes must be a whole number of bytes above zero, not {copy_bytes!r}")
    measured = _value(table, "measured", "")
    if not isinstance(measured, list) or not measured:
        raise ValueError(f"measured must list at least one measurement, not {measured!r}")
    return PageableSpread(
        machines=_text(table, "machines", ""),
        pipeline=config,
        copy_bytes=copy_bytes,
        measurements=tuple(_measurement(entry, f"measurement {n}: ") for n, entry in enumerate(measured, 1)),
    )


def _measurement(entry: object, where: str) -> PageableMeasurement:
    if not isinstance(entry, Mapping):
        raise ValueError(f"{where}must be a table, not {entry!r}")
    _only_keys(entry, {"date", "source", "pipeline_ms", "h2d_gbps", "d2h_gbps"}, where)
    low_high = _value(entry, "pipeline_ms", where)
    if not isinstance(low_high, list) or len(low_high) != 2:
        raise ValueError(f"{where}pipeline_ms must be [fastest, slowest] in ms, not {low_high!r}")
    fastest, slowest = (_positive(value, f"{where}pipeline_ms") for value in low_high)
    if fastest > slowest:
        raise ValueError(f"{where}pipeline_ms must be [fastest, slowest] in ms, not {low_high!r}")
    return PageableMeasurement(
        date=_text(entry, "date", where),
        source=_text(entry, "source", where),
        pipeline_ms=(fastest, slowest),
        h2d_gbps=_positive(_value(entry, "h2d_gbps", where), f"{where}h2d_gbps"),
        d2h_gbps=_positive(_value(entry, "d2h_gbps", where), f"{where}d2h_gbps"),
    )


def _value(table: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in table:
        raise ValueError(f"{where}{key} is missing")
    return table[key]


def _text(table: Mapping[str, Any], key: str, where: str) -> str:
    value = _value(table, key, where)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{where}{key} must be text, not {value!r}")
    return value


def _positive(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < math.inf:
        raise ValueError(f"{what} must be a number above zero, not {value!r}")
    return float(value)


def _only_keys(table: Mapping[str, Any], known: set[str], where: str) -> None:
    unknown = sorted(set(table) - known)
    if unknown:
        raise ValueError(f"{where}unknown {', '.join(unknown)}; known: {', '.join(sorted(known))}")


def _span(values: Iterable[float]) -> tuple[float, float]:
    listed = list(values)
    return min(listed), max(listed)
