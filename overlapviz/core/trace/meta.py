"""What produced a trace: one typed field per metadata entry overlapviz writes or reads.

A trace file stores this as a JSON object (``otherData.meta``); `TraceMeta.from_dict` checks
such an object with the rules of `overlapviz.core.trace.checks` and builds the typed value
once, and `TraceMeta.to_dict` writes it back. Entries this version does not know are kept in
`TraceMeta.extra` and written back as they came, so nothing in a file is lost.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from overlapviz.core.trace.checks import check_meta


@dataclass(frozen=True)
class TraceMeta:
    """Where and how a trace was made.

    Fields are named as the entries of the file and come in the order the backends and the
    importers write them, so that a file reads back and writes again as it was. A field left
    at its default is not written (but ``simulated`` always is). `extra` holds every entry
    that is not a field.
    """

    backend: str | None = None  # "sim", "cupy", "file" (another tool's trace), ...
    device: str | None = None  # the backend's key: a model profile or "cuda:0"
    device_name: str | None = None  # the GPU's or the model's full name
    timing: str | None = None  # the timing source: "model", "cupti", "cuda-events", a tool's name
    simulated: bool = False  # whether the model drew it
    config: Mapping[str, Any] | None = None  # a `PipelineConfig.to_dict()`; None for another program's run
    version: str | None = None  # overlapviz's version that made it
    source: str | None = None  # the file another tool's trace was read from
    tool: str | None = None  # the tool that recorded it
    tool_version: str | None = None
    recorded: str | None = None  # the day it was recorded (ISO date)
    device_facts: Mapping[str, Any] = field(default_factory=dict)  # copy engines and what else the backend knows
    not_shown: Mapping[str, int] = field(default_factory=dict)  # records not drawn, counted by what they are
    caveat: str | None = None  # a sentence of caution the backend adds to its figures
    window: tuple[int, int] | None = None  # the (start, end) ns this trace was cut to, in the whole run's time
    window_name: str | None = None  # the range `window` is, where it was chosen by name
    timing_reason: str | None = None  # why a real GPU's run was timed with CUDA events
    host_wall_ns: int | None = None  # the host's wall time of the timed region
    pinned_kept_bytes: int | None = None  # pinned host memory kept for the next run
    host_issue_ns: int | None = None  # the host's time issuing the pipeline, measured on its clock
    ring_pinned_bytes: int | None = None  # the pinned bytes of a staging ring's slots
    graph_capture_ns: int | None = None  # the one capture of a CUDA Graph run, paid before the timed runs
    legacy_streams: tuple[int, ...] = ()  # the streams another tool's file names as the legacy default stream
    process: str | None = None  # the processes that called CUDA, as another tool's file names them (comma-separated)
    extra: Mapping[str, Any] = field(default_factory=dict)  # entries that are no field, as they came

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TraceMeta:
        """Check `data` (a file's metadata object) and build the metadata it describes.

        Parameters
        ----------
        data
            The metadata as a JSON object: entries named as the fields, any others kept.

        Returns
        -------
        TraceMeta
            The metadata; `to_dict` gives `data` back (in the fields' order, without nulls).

        Raises
        ------
        TraceValueError
            An entry is of the wrong type or out of range; the message names it.
        """
        check_meta(dict(data))
        known = {name: _own(value) for name, value in data.items() if name in _FIELDS and value is not None}
        if "window" in known:
            start, end = known["window"]
            known["window"] = (start, end)
        if "legacy_streams" in known:
            known["legacy_streams"] = tuple(known["legacy_streams"])
        extra = {name: value for name, value in data.items() if name not in _FIELDS}
        return cls(**known, extra=extra)

    def to_dict(self) -> dict[str, Any]:
        """The metadata as a JSON object, as `from_dict` reads it: fields in order, then `extra`."""
        data: dict[str, Any] = {}
        for name in _FIELDS:
            value = getattr(self, name)
            if name == "simulated" or value != _DEFAULTS[name]:
                data[name] = list(value) if name in ("window", "legacy_streams") else _own(value)
        return {**data, **self.extra}

    def replace(self, **changes: Any) -> TraceMeta:
        """The same metadata with entries added or replaced; an entry that is no field goes to `extra`."""
        fields = {name: value for name, value in changes.items() if name in _FIELDS}
        others = {name: value for name, value in changes.items() if name not in _FIELDS}
        return dataclasses.replace(self, **fields, extra={**self.extra, **others} if others else self.extra)


def _own(value: Any) -> Any:
    """A copy of a mapping, so that no one else's object changes the metadata; other values as they are."""
    return dict(value) if isinstance(value, Mapping) else value


_FIELDS = tuple(f.name for f in dataclasses.fields(TraceMeta) if f.name != "extra")
_DEFAULTS: dict[str, Any] = {name: getattr(TraceMeta(), name) for name in _FIELDS}
