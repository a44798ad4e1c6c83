"""The figures and findings of each GPU of a trace, apart from the others'.

Two GPUs have two H2D engines, two compute units and two D2H engines: figures worked out
over both at once add one GPU's copies to the other's busy time and count one GPU's kernel
as hiding the other's copy. Each GPU's *part* of a trace is its device ops, the host calls
that issued them (where the trace links a call to its op) and the host spans that belong to
no other GPU (a synchronize, an allocation, an annotation); its figures are those of that
part, but for what the whole program waited for, which stays the whole trace's: the wall
time, the host's time allocating and the RAM pinned. Its host issue time is that of the
calls that issued its ops, each up to the program's next issuing call, whichever GPU that
call fed, so the GPUs' issue times add up to the whole trace's.

A trace of one GPU is one part holding every row, so its figures are the whole trace's.

The findings of a whole trace of several GPUs about what a GPU did are each GPU's own
(`trace_findings`): a rule run over both GPUs at once would weigh two engines' busy time against
one makespan and say, for example, that kernels kept the compute units busy 9.8 ms of a 6.6 ms
run.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.metrics import (
    Metrics,
    compute_metrics,
    host_alloc_ns,
    host_issue_ns,
    issuing_calls,
    pageable_copy_calls,
    pinned_bytes,
    wall_ns,
)
from overlapviz.core.findings import PROGRAM_RULES, RULES, find_findings, findings_by_rule
from overlapviz.core.findings.finding import Finding
from overlapviz.core.i18n import _
from overlapviz.core.trace.answer_cache import kept_per_trace, once_per_trace
from overlapviz.core.trace.lanes import gpus_of
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import UNKNOWN, Trace

_CUDA_KEY = re.compile(r"cuda:(\d+)")
NAME_SEPARATOR = " + "  # how an imported trace's meta joins its GPUs' names, in the order of its keys


@dataclass(frozen=True, eq=False)
class GpuPart:
    """One GPU's part of a trace: a trace of its own, and where each of its rows is in the whole."""

    device: int
    trace: Trace
    rows: npt.NDArray[np.int64]  # the whole trace's row of each of the part's rows, read-only


@once_per_trace
def issued_device(trace: Trace) -> npt.NDArray[np.int16]:
    """Per row: for a call that issued a device op, the GPU that op ran on; -1 for other rows."""
    calls = issuing_calls(trace)
    ops = np.where(calls, trace["op"], 0)
    device: npt.NDArray[np.int16] = np.where(calls, trace["device"][ops], UNKNOWN).astype(np.int16)
    return device


def gpu_rows(trace: Trace, device: int) -> npt.NDArray[np.int64]:
    """The rows of `device`'s part (see the module docstring), in the trace's order."""
    own = trace["device"] == device
    calls = issuing_calls(trace)
    host_of_no_other = own | (trace["device"] == UNKNOWN)
    keep = np.where(trace.device_mask, own, np.where(calls, issued_device(trace) == device, host_of_no_other))
    return np.flatnonzero(keep).astype(np.int64)


def gpu_part(trace: Trace, device: int) -> GpuPart:
    """`device`'s part of `trace`; the trace itself where the part is every row."""
    rows = gpu_rows(trace, device)
    rows.flags.writeable = False
    if rows.size == len(trace):
        return GpuPart(device, trace, rows)
    new_row = np.full(len(trace), UNKNOWN, dtype=np.int64)
    new_row[rows] = np.arange(rows.size)
    columns = {name: values[rows].copy() for name, values in trace.columns.items()}
    op = columns["op"]
    linked = op != UNKNOWN
    op[linked] = new_row[op[linked]]  # an op on another GPU: the call issued nothing of this part
    return GpuPart(device, Trace(columns, trace.names, trace.meta), rows)


@kept_per_trace
def gpu_parts(trace: Trace) -> Mapping[int, GpuPart]:
    """Each GPU's part of `trace`, by GPU index, in the order of `gpus_of`."""
    return MappingProxyType({device: gpu_part(trace, device) for device in gpus_of(trace)})


@kept_per_trace
def metrics_per_device(trace: Trace) -> Mapping[int, Metrics]:
    """The metrics of each GPU's part of `trace`, by GPU index (see the module docstring).

    Parameters
    ----------
    trace
        A trace of one or more GPUs.

    Returns
    -------
    Mapping[int, Metrics]
        One entry per GPU that ran a device op, in the order of `gpus_of`; for a trace of one
        GPU its one entry equals `compute_metrics(trace)`.
    """
    issuing = issuing_calls(trace) & ~pageable_copy_calls(trace)
    wall, alloc, pinned = wall_ns(trace), host_alloc_ns(trace), pinned_bytes(trace)
    figures = {}
    for device, part in gpu_parts(trace).items():
        calls = np.flatnonzero(issuing & (issued_device(trace) == device))
        figures[device] = dataclasses.replace(
            compute_metrics(part.trace),
            host_issue_ns=host_issue_ns(trace, calls), wall_ns=wall, host_alloc_ns=alloc, pinned_bytes=pinned,
        )  # fmt: skip
    return MappingProxyType(figures)


@kept_per_trace
def _part_findings_by_rule(trace: Trace) -> Mapping[int, tuple[tuple[Finding, ...], ...]]:
    """Per GPU, the findings of each rule of `RULES` on its part, pointing at the whole trace's rows.

    Worked out once per trace: `findings_per_device` lists them all, `trace_findings` those of
    the rules that read a GPU's part.
    """
    metrics = metrics_per_device(trace)
    return MappingProxyType({
        device: tuple(
            tuple(Finding(found.code, found.message, part.rows[found.rows]) for found in by_rule)
            for by_rule in findings_by_rule(part.trace, metrics[device])
        )
        for device, part in gpu_parts(trace).items()
    })


@kept_per_trace
def findings_per_device(trace: Trace) -> Mapping[int, tuple[Finding, ...]]:
    """The findings of each GPU's part of `trace`, pointing at the whole trace's rows."""
    return MappingProxyType({
        device: tuple(found for by_rule in rules for found in by_rule)
        for device, rules in _part_findings_by_rule(trace).items()
    })


def trace_findings(trace: Trace, metrics: Metrics) -> list[Finding]:
    """The findings of the whole of `trace`, whose figures are `metrics`.

    For one GPU these are `find_findings`'. For several, those of the rules about the program
    as a whole (`PROGRAM_RULES`), run on the whole trace, then each GPU's findings of the other
    rules, run on its part, in GPU order and each led by its GPU (``GPU 1: ...``).
    """
    if len(gpus_of(trace)) < 2:
        return find_findings(trace, metrics)
    found = find_findings(trace, metrics, PROGRAM_RULES)
    for device, rules in _part_findings_by_rule(trace).items():
        found.extend(
            Finding(finding.code, _("GPU {gpu}: {finding}").format(gpu=device, finding=finding.message), finding.rows)
            for rule, by_rule in zip(RULES, rules, strict=True)
            if rule not in PROGRAM_RULES
            for finding in by_rule
        )
    return found


def gpu_names(meta: TraceMeta) -> dict[int, str]:
    """The GPUs' names by index, where the metadata names them.

    An imported trace keys its GPUs ``cuda:0,cuda:1`` and names them ``A + B`` in that order;
    a trace of one GPU has the one name for whichever GPU its key gives.
    """
    keys = [_CUDA_KEY.fullmatch(key.strip()) for key in (meta.device or "").split(",")]
    names = (meta.device_name or "").split(NAME_SEPARATOR)
    if not meta.device_name or not all(keys) or len(keys) != len(names):
        return {}
    return {int(key.group(1)): name for key, name in zip(keys, names, strict=True) if key is not None}


def gpu_title(meta: TraceMeta, device: int) -> str:
    """``GPU 0 (NVIDIA H200)``, or ``GPU 0`` where the metadata gives no other name."""
    title = _("GPU {gpu}").format(gpu=device)
    name = gpu_names(meta).get(device)
    return title if not name or name == title else f"{title} ({name})"
