"""Communication spans: how a span's name carries its collective, and the rule that made it communication.

A kernel of NCCL or RCCL (``ncclKernel_AllReduce_RING_LL_Sum_float``, ``ncclDevKernel_Generic``)
moves data between GPUs: it is communication, not the GPU computing. Where the trace names
the collective a kernel ran (Kineto's ``Collective name`` argument), the span's name is the
kernel's followed by the collective in square brackets, ``ncclDevKernel_Generic [allreduce]``:
the name travels with the span into overlapviz's own files and through every slice of the
trace, and kernels of one name that ran different collectives are told apart. Where the trace
names the process group too (Kineto's ``Process Group Name``), it follows the collective:
``ncclDevKernel_Generic [allreduce, process group 0]``, as NCCL orders collectives per group.
"""

from __future__ import annotations

import re

from overlapviz.core.i18n import _

_WITH_COLLECTIVE = re.compile(r"^(?P<kernel>.*) \[(?P<collective>[^\[\]]+)\]$", re.DOTALL)
_IN_GROUP = ", process group "
_RCCL = re.compile(r"^(?:void\s+)?rccl", re.IGNORECASE)


def with_collective(kernel: str, collective: str) -> str:
    """The name of a communication span whose collective (`collective_in_group`) the trace names."""
    return f"{kernel} [{collective}]"


def collective_in_group(collective: str, group: str) -> str:
    """What the brackets hold: the collective, and its process group where the trace names one."""
    group = re.sub(r"[\[\]\r\n]", "", group).strip()
    return f"{collective}{_IN_GROUP}{group}" if group else collective


def collective_of(name: str) -> str | None:
    """The collective a communication span's name carries; None where the trace did not say."""
    match = _WITH_COLLECTIVE.match(name)
    return None if match is None else match["collective"].split(_IN_GROUP, 1)[0]


def process_group_of(name: str) -> str | None:
    """The process group a communication span's name carries; None where the trace did not say."""
    match = _WITH_COLLECTIVE.match(name)
    parts = [] if match is None else match["collective"].split(_IN_GROUP, 1)
    return parts[1] if len(parts) == 2 else None


def communication_rule(name: str) -> str:
    """Why a span is communication, in the words the tooltip shows."""
    library = "RCCL" if _RCCL.match(name) else "NCCL"
    collective = collective_of(name)
    if collective is None:
        return _("communication: {library} kernel").format(library=library)
    group = process_group_of(name)
    if group is None:
        return _("communication: {library} collective ({collective})").format(library=library, collective=collective)
    return _("communication: {library} collective ({collective}) in process group {group}").format(
        library=library, collective=collective, group=group
    )
