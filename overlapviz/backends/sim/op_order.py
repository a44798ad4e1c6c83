"""What the order of the ops alone decides before a run: each stream's next op, the work queues, Fermi's batches."""

from __future__ import annotations

from overlapviz.backends.sim.ops import Op
from overlapviz.backends.sim.profile import DeviceProfile
from overlapviz.core.trace.spans import OpKind, Unit

NO_QUEUE = -1  # host copies reach no hardware queue


def stream_successors(ops: list[Op]) -> list[int]:
    """For each op, the next op of its stream in issue order (-1 for the last)."""
    successor = [-1] * len(ops)
    last: dict[int, int] = {}
    for i, op in enumerate(ops):
        if op.stream < 0:  # a host copy: the host thread keeps its order
            continue
        if op.stream in last:
            successor[last[op.stream]] = i
        last[op.stream] = i
    return successor


def first_in_stream(ops: list[Op]) -> list[bool]:
    """True for each op that is the first of its stream."""
    seen: set[int] = set()
    first = []
    for op in ops:
        first.append(op.stream not in seen)
        seen.add(op.stream)
    return first


def work_queues(ops: list[Op], profile: DeviceProfile) -> tuple[list[int], list[list[int]]]:
    """Which hardware queue carries each op, and each queue's ops in issue order (host copies: none)."""
    keys: list[int | None] = []  # a key per queue: unique per GPU
    for op in ops:
        if op.stream < 0:
            keys.append(None)
        else:
            # each GPU has queues of its own; a GPU's streams share them as on one GPU (stream
            # numbers of GPU 1 are shifted by a constant, so the same streams share a queue)
            queue = int(op.unit) if profile.per_engine_queues else op.stream % profile.work_queues
            keys.append(queue + op.device * (len(Unit) + profile.work_queues))
    index = {key: n for n, key in enumerate(dict.fromkeys(key for key in keys if key is not None))}
    queues: list[list[int]] = [[] for _ in index]
    queue_of = [NO_QUEUE if key is None else index[key] for key in keys]
    for i, queue in enumerate(queue_of):
        if queue != NO_QUEUE:
            queues[queue].append(i)
    return queue_of, queues


def kernel_batches(ops: list[Op], delayed_signal: bool) -> tuple[list[int], list[int]]:
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
    for i, op in enumerate(ops):
        if op.kind is not OpKind.KERNEL:
            batch_streams = set()
            continue
        if not batch_streams or op.stream in batch_streams:
            sizes.append(0)
            batch_streams = set()
        batch_streams.add(op.stream)
        batch_of[i] = len(sizes) - 1
        sizes[-1] += 1
    return batch_of, sizes
