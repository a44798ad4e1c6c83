"""Collectives are matched within their process group where the traces name it, by name and number elsewhere."""

import gzip
import json
from collections import Counter
from pathlib import Path

import numpy as np

from overlapviz.core.trace.communication import (
    collective_in_group,
    collective_of,
    communication_rule,
    process_group_of,
    with_collective,
)
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import OpKind, TraceBuilder, Unit
from overlapviz.importers.read import read_trace_file
from overlapviz.job.anchors import collective_anchors
from overlapviz.job.clocks import align_clocks
from overlapviz.job.matching import match_collectives

NCCL = Path(__file__).resolve().parents[1] / "data" / "torch-real" / "hta-nccl-a100-rank0-of-2.json.gz"
MS = 1_000_000
KERNEL = "ncclDevKernel_Generic"


def _ranks_collectives(*collectives):
    """A rank's trace of (collective, group or "", start ms, end ms) NCCL kernels."""
    builder = TraceBuilder()
    for collective, group, start, end in collectives:
        name = with_collective(KERNEL, collective_in_group(collective, group))
        builder.add(OpKind.COMMUNICATION, Unit.COMMUNICATION, int(start * MS), int(end * MS), name=name, stream=0)
    return builder.build(TraceMeta())


def test_the_name_carries_the_group_after_the_collective():
    name = with_collective(KERNEL, collective_in_group("allreduce", "1"))
    assert name == f"{KERNEL} [allreduce, process group 1]"
    assert (collective_of(name), process_group_of(name)) == ("allreduce", "1")
    assert communication_rule(name) == "communication: NCCL collective (allreduce) in process group 1"
    plain = with_collective(KERNEL, collective_in_group("allreduce", ""))
    assert (collective_of(plain), process_group_of(plain)) == ("allreduce", None)
    assert process_group_of(with_collective(KERNEL, collective_in_group("allreduce", "[x]\n"))) == "x"


def test_the_real_nccl_kernels_keep_the_group_kineto_gives_them():
    events = json.loads(gzip.decompress(NCCL.read_bytes()))["traceEvents"]
    expected = Counter(
        (e["args"]["Collective name"], e["args"]["Process Group Name"])
        for e in events if e.get("cat") == "kernel" and "Process Group Name" in e.get("args", {})
    )  # fmt: skip
    trace = read_trace_file(NCCL)
    comm = np.flatnonzero(trace["kind"] == OpKind.COMMUNICATION)
    found = Counter((collective_of(trace.name_of(int(r))), process_group_of(trace.name_of(int(r)))) for r in comm)
    assert found == expected and sum(found.values()) == 21
    anchors = collective_anchors(trace, 0)
    assert sorted(anchors.keys) == sorted(collective_in_group(c, g) for c, g in expected)


def _pairs(matched):
    """(rank 0's start, rank 1's start) in ms of each collective matched on both ranks."""
    pairs = []
    for collective in np.unique(matched.collective):
        rows = np.flatnonzero(matched.collective == collective)
        if rows.size == 2:
            pairs.append(tuple(int(matched.start_ns[r]) // MS for r in rows))
    return sorted(pairs)


def test_two_groups_interleaved_differently_match_within_each_group():
    # rank 0 starts group 1's first all-reduce before group 2's; rank 1 the other way round
    rank0 = _ranks_collectives(("allreduce", "1", 0, 1), ("allreduce", "2", 2, 3), ("allreduce", "1", 4, 5))
    rank1 = _ranks_collectives(("allreduce", "2", 0, 1), ("allreduce", "1", 2, 3), ("allreduce", "1", 4, 5))
    matched = match_collectives([collective_anchors(rank0, 0), collective_anchors(rank1, 0)])
    assert _pairs(matched) == [(0, 2), (2, 0), (4, 4)]


def test_without_groups_the_collectives_match_by_name_and_number_as_before():
    rank0 = _ranks_collectives(("allreduce", "", 0, 1), ("allreduce", "", 2, 3))
    rank1 = _ranks_collectives(("allreduce", "", 5, 6), ("allreduce", "", 7, 8))
    anchors = [collective_anchors(rank0, 0), collective_anchors(rank1, 0)]
    assert anchors[0].keys == ("allreduce",)
    assert _pairs(match_collectives(anchors)) == [(0, 0), (2, 2)]
    clock = align_clocks(match_collectives(anchors), 2)[1]
    assert (clock.aligned_on, clock.matched, clock.uncertainty_ns) == ("collectives", 2, 0)
