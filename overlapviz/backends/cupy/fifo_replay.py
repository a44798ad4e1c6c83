"""Separate queue time from run time when only CUDA events time the ops (pure).

An event pair around an op measures from the moment its stream reaches it (``ready``) to
its end. When ops of several streams share one copy engine, that span includes the time the
op waited for the engine, and a timeline drawn from it shows copies overlapping that never
did. An engine runs one op at a time in FIFO order, so its ops end in the order it served
them, and each one started when it was ready and the one before it had ended.
"""

from __future__ import annotations

from collections.abc import Sequence


def replay_fifo(ready: Sequence[int], end: Sequence[int]) -> list[int]:
    """Start times of ops that one FIFO unit ran, from their ready and measured end times.

    The ops are served in the order they ended (ties: the one ready first); an op starts at
    the later of its ready time and the previous op's end. Lists are index-aligned.
    """
    if len(ready) != len(end):
        raise ValueError(f"{len(ready)} ready times for {len(end)} end times")
    start = [0] * len(end)
    free_at: int | None = None
    for i in sorted(range(len(end)), key=lambda i: (end[i], ready[i], i)):
        begins = ready[i] if free_at is None else max(ready[i], free_at)
        start[i] = min(begins, end[i])
        free_at = end[i] if free_at is None else max(free_at, end[i])
    return start


def replay_groups(groups: Sequence[Sequence[int]], ready: Sequence[int], end: Sequence[int]) -> list[int]:
    """Start times for all ops: ops in one group share a FIFO unit; the rest start when ready."""
    start = list(ready)
    for rows in groups:
        replayed = replay_fifo([ready[r] for r in rows], [end[r] for r in rows])
        for row, begins in zip(rows, replayed, strict=True):
            start[row] = begins
    return start
