"""PipelineConfig: defaults, validation messages, sizes, round trips."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from overlapviz.core.config import (
    GIB,
    IN_PLACE_MEMORIES,
    KIB,
    MIB,
    ConfigError,
    HostAlloc,
    HostMemory,
    IssueOrder,
    PipelineConfig,
    StreamKind,
    format_size,
    parse_size,
)


def test_defaults_are_the_reference_pipeline() -> None:
    config = PipelineConfig()
    assert (config.size_bytes, config.chunks, config.streams, config.iters) == (256 * MIB, 16, 4, 1860)
    assert (config.memory, config.order, config.stream_kind) == (
        HostMemory.PINNED, IssueOrder.DEPTH, StreamKind.NONBLOCKING)
    assert config.chunk_bytes == 16 * MIB and config.chunk_elements == 4 * 1024 * 1024


def test_chunk_to_stream_mapping() -> None:
    config = PipelineConfig(streams=3, chunks=16)
    assert [config.stream_of(c) for c in range(5)] == [0, 1, 2, 0, 1]
    legacy = config.replace(stream_kind="legacy")
    assert {legacy.stream_of(c) for c in range(16)} == {0}


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"chunks": 0}, "chunks", "allowed 1 to"),
        ({"streams": -1}, "streams", "allowed 1 to"),
        ({"iters": -5}, "iters", "allowed 0 to"),
        ({"size_bytes": 10}, "size_bytes", "allowed 4 KiB to 64 GiB"),
        ({"size_bytes": 128 * GIB}, "size_bytes", "out of range"),
        ({"size_bytes": 1 * MIB + 2}, "size_bytes", "float32"),
        ({"size_bytes": 4 * KIB, "chunks": 2000}, "chunks", "2000 chunks are more than the 1024 float32 elements"),
        ({"memory": "magic"}, "memory", "pinned, pageable, registered"),
        ({"order": "random"}, "order", "depth, breadth"),
        ({"stream_kind": "x"}, "stream_kind", "nonblocking, legacy"),
        ({"chunks": 2.5}, "chunks", "whole number"),
        ({"fresh_output": True}, "fresh_output", "pageable"),
        ({"host_alloc": "sometimes"}, "host_alloc", "reuse, per-run"),
    ],
)
def test_bad_values_name_the_field_and_the_range(changes: dict, field: str, words: str) -> None:
    with pytest.raises(ConfigError) as error:
        PipelineConfig(**changes)
    assert error.value.field == field
    assert str(error.value).startswith(f"{field}: ")
    assert words in str(error.value)


def test_host_buffers_are_reused_by_default_and_may_be_allocated_per_run() -> None:
    assert PipelineConfig().host_alloc is HostAlloc.REUSE
    per_run = PipelineConfig(host_alloc="per-run", memory="pageable", fresh_output=True)
    assert per_run.host_alloc is HostAlloc.PER_RUN
    assert per_run.to_dict()["host_alloc"] == "per-run"
    assert PipelineConfig.from_dict(per_run.to_dict()) == per_run
    assert per_run.describe().endswith(", fresh output buffer, host buffers allocated per run")
    assert "per run" not in PipelineConfig().describe() and "fresh" not in PipelineConfig().describe()


def test_any_chunk_count_is_taken_the_last_chunk_holding_the_remainder() -> None:
    config = PipelineConfig(streams=3, chunks=12)  # 67,108,864 elements: 5,592,405 per chunk, 4 left over
    sizes = [config.chunk_elements_of(c) for c in range(12)]
    assert sizes == [5_592_405] * 11 + [5_592_409]
    assert config.chunk_elements == 5_592_405 and config.last_chunk_elements == 5_592_409
    assert [config.chunk_offset_of(c) for c in (0, 1, 11)] == [0, 5_592_405, 11 * 5_592_405]
    assert config.chunk_bytes_of(11) == 4 * 5_592_409 and config.chunk_bytes == 4 * 5_592_405


def test_one_element_per_chunk_is_the_most_chunks() -> None:
    config = PipelineConfig(size_bytes=4 * KIB, chunks=1024)
    assert {config.chunk_elements_of(c) for c in range(1024)} == {1}
    with pytest.raises(ConfigError, match="at most 1024, one element per chunk"):
        config.replace(chunks=1025)


def test_a_chunk_outside_the_pipeline_is_refused() -> None:
    config = PipelineConfig(chunks=4)
    for chunk in (-1, 4):
        with pytest.raises(IndexError, match=f"chunk {chunk} is not one of the pipeline's 4 chunks"):
            config.chunk_elements_of(chunk)


@given(elements=st.integers(1024, 1 << 22), chunks=st.integers(1, 4096))
def test_chunks_tile_the_buffer_exactly(elements: int, chunks: int) -> None:
    chunks = min(chunks, elements)
    config = PipelineConfig(size_bytes=4 * elements, chunks=chunks)
    ends = [config.chunk_offset_of(c) + config.chunk_elements_of(c) for c in range(chunks)]
    starts = [config.chunk_offset_of(c) for c in range(chunks)]
    assert starts[0] == 0 and starts[1:] == ends[:-1] and ends[-1] == elements
    assert min(config.chunk_elements_of(c) for c in range(chunks)) >= 1
    assert sum(config.chunk_bytes_of(c) for c in range(chunks)) == config.size_bytes


@pytest.mark.parametrize(
    ("text", "expected"),
    [("256MiB", 256 * MIB), ("1GiB", GIB), ("1 GiB", GIB), ("64k", 64 * 1024), ("4096", 4096), ("1MB", 10**6),
     ("0.5GiB", GIB // 2)],
)
def test_parse_size(text: str, expected: int) -> None:
    assert parse_size(text) == expected


@pytest.mark.parametrize("text", ["", "abc", "12 parsecs", "-5MiB", "1.3B"])
def test_parse_size_rejects(text: str) -> None:
    with pytest.raises(ConfigError, match="size"):
        parse_size(text)


def test_format_size() -> None:
    assert format_size(256 * MIB) == "256 MiB"
    assert format_size(GIB + GIB // 2) == "1.5 GiB"
    assert format_size(100) == "100 B"


@given(
    streams=st.integers(1, 32),
    chunks_log=st.integers(0, 10),
    memory=st.sampled_from(list(HostMemory)),
    order=st.sampled_from(list(IssueOrder)),
    iters=st.integers(0, 5000),
    ring_slots=st.integers(1, 64),
)
def test_dict_round_trip(
    streams: int, chunks_log: int, memory: HostMemory, order: IssueOrder, iters: int, ring_slots: int
) -> None:
    assume(not (memory is HostMemory.STAGED and order is IssueOrder.BREADTH))  # refused: see below
    assume(not (memory in IN_PLACE_MEMORIES and iters == 0))  # refused too: nothing would run
    config = PipelineConfig(
        streams=streams, chunks=2**chunks_log, memory=memory, order=order, iters=iters, ring_slots=ring_slots
    )
    assert PipelineConfig.from_dict(config.to_dict()) == config


def test_every_kind_of_host_memory_has_its_name() -> None:
    assert [m.value for m in HostMemory] == [
        "pinned", "pageable", "registered", "write-combined", "mapped", "managed", "managed-prefetch", "staged",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"ring_slots": 0}, "ring_slots", "out of range"),
        ({"ring_slots": 65}, "ring_slots", "allowed 1 to 64"),
        ({"ring_slots": 2.0}, "ring_slots", "whole number"),
        ({"graph": "yes"}, "graph", "true or false"),
        ({"memory": "staged", "order": "breadth"}, "order", "depth order"),
        ({"memory": "mapped", "host_alloc": "per-run"}, "host_alloc", "pageable, pinned, registered"),
        ({"memory": "staged", "graph": True}, "graph", "asynchronous copies and kernels"),
        ({"memory": "pageable", "graph": True}, "graph", "asynchronous copies and kernels"),
        ({"memory": "managed-prefetch", "graph": True}, "graph", "asynchronous copies and kernels"),
        ({"stream_kind": "legacy", "graph": True}, "graph", "legacy default stream"),
        ({"memory": "mapped", "iters": 0}, "iters", "nothing runs"),
        ({"memory": "managed", "iters": 0}, "iters", "the kernel is the only op"),
    ],
)
def test_settings_a_memory_kind_cannot_honour_are_refused(changes: dict, field: str, words: str) -> None:
    with pytest.raises(ConfigError, match=words) as refused:
        PipelineConfig(**changes)
    assert refused.value.field == field


def test_the_ring_allocates_no_more_slots_than_chunks_and_only_when_staged() -> None:
    assert PipelineConfig(memory="staged", chunks=16, ring_slots=4).ring_slots_used == 4
    assert PipelineConfig(memory="staged", chunks=3, ring_slots=8).ring_slots_used == 3
    assert PipelineConfig(memory="pinned", ring_slots=8).ring_slots_used == 0


def test_describe_names_the_ring_and_the_graph_only_where_they_apply() -> None:
    assert "ring of 4 slots" in PipelineConfig(memory="staged", ring_slots=4).describe()
    assert "ring" not in PipelineConfig(memory="pinned", ring_slots=4).describe()
    assert PipelineConfig(graph=True).describe().endswith("one CUDA Graph")
    assert "Graph" not in PipelineConfig().describe()


def test_from_dict_rejects_unknown_keys_and_reads_sizes() -> None:
    with pytest.raises(ConfigError, match="unknown setting"):
        PipelineConfig.from_dict({"colour": "red"})
    assert PipelineConfig.from_dict({"size_bytes": "64MiB"}).size_bytes == 64 * MIB
