"""The guard against pinning too much host memory."""

from __future__ import annotations

import pytest

from overlapviz.core.config import GIB, MIB, PipelineConfig
from overlapviz.core.config.pinning import (
    DEFAULT_PINNED_SHARE,
    PINNED_SHARE_ENV,
    PinnedMemoryRefused,
    check_pinned_request,
    configured_pinned_share,
    gib,
    pipeline_pinned_bytes,
)

RAM = 125 * GIB


@pytest.fixture(autouse=True)
def no_share_setting(monkeypatch):
    monkeypatch.delenv(PINNED_SHARE_ENV, raising=False)


def test_a_request_within_the_share_passes():
    check_pinned_request(2 * 256 * MIB, RAM)
    check_pinned_request(62 * GIB, RAM)
    check_pinned_request(int(62.5 * GIB), RAM)  # exactly half: allowed


def test_a_request_over_the_share_is_refused_and_says_why():
    with pytest.raises(PinnedMemoryRefused) as refused:
        check_pinned_request(64 * GIB, RAM)
    assert str(refused.value) == (
        "refusing to pin 64 GiB of host memory: that is more than 50% of the 125 GiB of RAM available"
        " (at most 62.5 GiB). Pinned pages cannot be swapped out, so pinning that much would starve the"
        " operating system and every other program of memory. Use a smaller size or pageable memory, or"
        " raise the share with OVERLAPVIZ_PINNED_SHARE."
    )
    assert isinstance(refused.value, ValueError)


def test_the_share_can_be_given():
    check_pinned_request(64 * GIB, RAM, share=0.6)
    with pytest.raises(PinnedMemoryRefused, match="more than 25% of the 125 GiB of RAM available"):
        check_pinned_request(32 * GIB, RAM, share=0.25)


def test_the_share_comes_from_the_environment(monkeypatch):
    assert configured_pinned_share() == DEFAULT_PINNED_SHARE == 0.5
    monkeypatch.setenv(PINNED_SHARE_ENV, "0.75")
    assert configured_pinned_share() == 0.75
    check_pinned_request(64 * GIB, RAM)  # 64 of 93.75 GiB
    monkeypatch.setenv(PINNED_SHARE_ENV, "0.1")
    with pytest.raises(PinnedMemoryRefused, match="more than 10%"):
        check_pinned_request(16 * GIB, RAM)


@pytest.mark.parametrize("text", ["half", "0", "-0.5", "1.5", "nan"])
def test_a_bad_share_setting_is_a_clear_error(monkeypatch, text):
    monkeypatch.setenv(PINNED_SHARE_ENV, text)
    with pytest.raises(ValueError, match=f"OVERLAPVIZ_PINNED_SHARE='{text}' is not a number above 0 and at most 1"):
        check_pinned_request(GIB, RAM)


@pytest.mark.parametrize("share", [0.0, 1.01, -1.0])
def test_a_bad_share_argument_is_an_error(share):
    with pytest.raises(ValueError, match="above 0 and at most 1"):
        check_pinned_request(GIB, RAM, share=share)


def test_an_empty_setting_means_the_default(monkeypatch):
    monkeypatch.setenv(PINNED_SHARE_ENV, " ")
    assert configured_pinned_share() == 0.5


@pytest.mark.parametrize(("n", "text"), [(64 * GIB, "64 GiB"), (int(62.5 * GIB), "62.5 GiB"), (GIB // 4, "0.25 GiB"),
                                         (GIB // 3, "0.33 GiB")])
def test_gib(n, text):
    assert gib(n) == text


@pytest.mark.parametrize(
    ("memory", "pinned"),
    [("pinned", 2 * GIB), ("registered", 2 * GIB), ("write-combined", 2 * GIB), ("mapped", 2 * GIB),
     ("pageable", 0), ("managed", 0), ("managed-prefetch", 0)],
)  # fmt: skip
def test_each_kind_pins_both_buffers_or_nothing(memory: str, pinned: int) -> None:
    assert pipeline_pinned_bytes(PipelineConfig(size_bytes=GIB, memory=memory)) == pinned


def test_a_staging_ring_pins_an_input_and_an_output_slot_of_the_largest_chunk_per_slot() -> None:
    config = PipelineConfig(memory="staged", chunks=16, ring_slots=2)  # the H200's ring: 64 MiB pinned
    assert pipeline_pinned_bytes(config) == 2 * 2 * 16 * MIB == 64 * MIB
    assert pipeline_pinned_bytes(config.replace(ring_slots=8)) == 256 * MIB
    odd = PipelineConfig(memory="staged", size_bytes=4 * 1030, chunks=4, ring_slots=3)  # 257 x 3, then 259
    assert pipeline_pinned_bytes(odd) == 3 * 2 * 4 * 259
    assert pipeline_pinned_bytes(odd.replace(ring_slots=64)) == 4 * 2 * 4 * 259  # never more slots than chunks
