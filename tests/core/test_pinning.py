"""The guard against pinning too much host memory."""

from __future__ import annotations

import pytest

from overlapviz.core.config import GIB, MIB
from overlapviz.core.pinning import (
    DEFAULT_PINNED_SHARE,
    PINNED_SHARE_ENV,
    PinnedMemoryRefused,
    check_pinned_request,
    configured_pinned_share,
    gib,
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
