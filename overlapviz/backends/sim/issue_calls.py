"""The API call that issues each op: its host time and its name (a host copy: the copy itself)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from overlapviz.backends.sim.ops import OpColumns
from overlapviz.backends.sim.profile import DeviceProfile
from overlapviz.core.trace.spans import OpKind


def issue_calls(
    columns: OpColumns, profile: DeviceProfile, name_index: Callable[[str], int]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Host time and name (an index given by `name_index`) of the call that issues each op.

    A name is asked for only for calls the run makes, in a fixed order, so the names of a
    run's host calls are numbered the same way every time.
    """
    launch_ns, memcpy_ns = profile.launch_call_us * 1e3, profile.memcpy_call_us * 1e3
    kinds = profile.host_kinds
    prefetch_ns = memcpy_ns if kinds is None else kinds.prefetch_call_us * 1e3
    launch, memcpy = name_index("cuLaunchKernel"), name_index("cudaMemcpyAsync")
    kind = columns.kind
    prefetch = name_index("cudaMemPrefetchAsync") if (kind == OpKind.PREFETCH).any() else -1  # only calls made
    peer = name_index("cudaMemcpyPeerAsync") if (kind == OpKind.PEER).any() else -1
    # By kind: copies (and any other kind) are cudaMemcpyAsync calls; a peer copy is not
    # measured: costed as the pinned cudaMemcpyAsync it resembles.
    ns_of, name_of = np.full(len(OpKind), memcpy_ns), np.full(len(OpKind), memcpy, dtype=np.int64)
    ns_of[OpKind.KERNEL], name_of[OpKind.KERNEL] = launch_ns, launch
    ns_of[OpKind.PREFETCH], name_of[OpKind.PREFETCH] = prefetch_ns, prefetch
    name_of[OpKind.PEER] = peer
    call_ns = np.where(kind == OpKind.HOST_COPY, columns.work_ns, ns_of[kind])  # a host copy: the copy itself
    return call_ns, name_of[kind]
