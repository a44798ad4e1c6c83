"""The API call that issues each op: its host time and its name (a host copy: the copy itself)."""

from __future__ import annotations

from collections.abc import Callable

from overlapviz.backends.sim.ops import Op
from overlapviz.backends.sim.profile import DeviceProfile
from overlapviz.core.trace.spans import OpKind


def issue_calls(
    ops: list[Op], profile: DeviceProfile, name_index: Callable[[str], int]
) -> tuple[list[float], list[int]]:
    """Host time and name (an index given by `name_index`) of the call that issues each op.

    A name is asked for only for calls the run makes, in a fixed order, so the names of a
    run's host calls are numbered the same way every time.
    """
    launch_ns, memcpy_ns = profile.launch_call_us * 1e3, profile.memcpy_call_us * 1e3
    kinds = profile.host_kinds
    prefetch_ns = memcpy_ns if kinds is None else kinds.prefetch_call_us * 1e3
    launch, memcpy = name_index("cuLaunchKernel"), name_index("cudaMemcpyAsync")
    prefetches = any(op.kind is OpKind.PREFETCH for op in ops)  # a name only for calls the run makes
    prefetch = name_index("cudaMemPrefetchAsync") if prefetches else -1
    peers = any(op.kind is OpKind.PEER for op in ops)
    peer = name_index("cudaMemcpyPeerAsync") if peers else -1
    call_ns: list[float] = []
    call_name: list[int] = []
    for op in ops:  # `is` on the members: hashing an enum member runs Python code, slow at 10^5 ops
        kind = op.kind
        if kind is OpKind.KERNEL:
            call_ns.append(launch_ns)
            call_name.append(launch)
        elif kind is OpKind.PREFETCH:
            call_ns.append(prefetch_ns)
            call_name.append(prefetch)
        elif kind is OpKind.PEER:  # not measured: costed as the pinned cudaMemcpyAsync it resembles
            call_ns.append(memcpy_ns)
            call_name.append(peer)
        else:
            call_ns.append(op.work_ns if kind is OpKind.HOST_COPY else memcpy_ns)
            call_name.append(memcpy)
    return call_ns, call_name
