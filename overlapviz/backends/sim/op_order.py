"""What the order of the ops alone decides before a run: each stream's next op, the work queues, Fermi's batches."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from overlapviz.backends.sim.op_table import Op
from overlapviz.backends.sim.ops import op_values
from overlapviz.backends.sim.profile import DeviceProfile
from overlapviz.core.trace.spans import OpKind, Unit

NO_QUEUE = -1  # host copies reach no hardware queue
IntColumn = npt.NDArray[np.int64]  # one value per op, in issue order
BoolColumn = npt.NDArray[np.bool_]


def stream_successors(streams: IntColumn) -> IntColumn:
    """For each op (by its stream), the next op of its stream in issue order (-1 for the last)."""
    successor = np.full(len(streams), -1, dtype=np.int64)
    on_device = np.flatnonzero(streams >= 0)  # a host copy: the host thread keeps its order
    order = on_device[np.argsort(streams[on_device], kind="stable")]  # each stream's ops, in issue order
    same = streams[order[1:]] == streams[order[:-1]]
    successor[order[:-1][same]] = order[1:][same]
    return successor


def first_in_stream(streams: IntColumn) -> BoolColumn:
    """True for each op (by its stream) that is the first of its stream."""
    first = np.zeros(len(streams), dtype=bool)
    first[np.unique(streams, return_index=True)[1]] = True  # the index of each stream's first op
    return first


def work_queues(
    streams: IntColumn, units: IntColumn, devices: IntColumn, profile: DeviceProfile
) -> tuple[IntColumn, list[IntColumn]]:
    """Which hardware queue carries each op, and each queue's ops in issue order (host copies: none).

    Queues are numbered in the order their first op is issued.
    """
    # each GPU has queues of its own; a GPU's streams share them as on one GPU (stream
    # numbers of GPU 1 are shifted by a constant, so the same streams share a queue)
    queue = units if profile.per_engine_queues else streams % profile.work_queues
    keys = queue + devices * (len(Unit) + profile.work_queues)  # a key per queue: unique per GPU
    on_device = np.flatnonzero(streams >= 0)
    distinct, first, index = np.unique(keys[on_device], return_index=True, return_inverse=True)
    number = np.empty(len(distinct), dtype=np.int64)
    number[np.argsort(first)] = np.arange(len(distinct))  # each key's queue, by its first op
    queue_of = np.full(len(streams), NO_QUEUE, dtype=np.int64)
    queue_of[on_device] = number[index.reshape(-1)]
    order = on_device[np.argsort(queue_of[on_device], kind="stable")]
    bounds = np.searchsorted(queue_of[order], np.arange(1, len(distinct)))
    return queue_of, np.split(order, bounds) if len(distinct) else []


def kernel_batches(ops: Sequence[Op], delayed_signal: bool) -> tuple[list[int], list[int]]:
    """Group kernels issued back to back on different streams (only where signals are delayed).

    A kernel whose stream already has a kernel in the current batch starts a new batch: it
    waits for that kernel, so it was not issued beside it, and holding their signals together
    would have each wait for the other.
    """
    batch_of = [-1] * len(ops)
    sizes: list[int] = []
    if not delayed_signal:
        return batch_of, sizes
    batch_streams: set[int] = set()
    for i, (kind, stream) in enumerate(zip(op_values(ops, "kind"), op_values(ops, "stream"), strict=True)):
        if kind is not OpKind.KERNEL:
            batch_streams = set()
            continue
        if not batch_streams or stream in batch_streams:
            sizes.append(0)
            batch_streams = set()
        batch_streams.add(stream)
        batch_of[i] = len(sizes) - 1
        sizes[-1] += 1
    return batch_of, sizes
