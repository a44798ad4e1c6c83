"""Copy bandwidth by transfer size from the model, and the link's theoretical limit."""

from __future__ import annotations

import pytest

from overlapviz.backends.base import SWEEP_MEMORY_KINDS, SWEEP_SIZES
from overlapviz.backends.sim import create_backend
from overlapviz.backends.sim.bandwidth import bandwidth_sweep, sweep_kinds
from overlapviz.backends.sim.profile import available_profiles, load_profile
from overlapviz.core.config import GIB, KIB, MIB
from overlapviz.core.run_errors import BackendError

H200 = load_profile("h200")


def by_key(points: list) -> dict:
    return {(p["memory"], p["direction"], p["size"]): p for p in points}


def test_every_size_kind_and_direction_once_with_consistent_numbers() -> None:
    points = bandwidth_sweep(H200)
    assert tuple(64 * KIB * 4**k for k in range(8)) == SWEEP_SIZES and SWEEP_SIZES[-1] == GIB
    assert len(points) == len(SWEEP_SIZES) * 2 * 3
    memories = ("pinned", "pageable", "write-combined")
    wanted = {(m, d, s) for m in memories for d in ("h2d", "d2h") for s in SWEEP_SIZES}
    assert set(by_key(points)) == wanted
    for point in points:
        assert set(point) == {"size", "memory", "direction", "gbps", "seconds"}
        assert point["gbps"] * 1e9 * point["seconds"] == pytest.approx(point["size"])


def test_small_copies_lose_to_the_fixed_cost_and_large_pinned_ones_near_the_measured_rate() -> None:
    points = by_key(bandwidth_sweep(H200))
    for memory in ("pinned", "pageable"):
        for direction in ("h2d", "d2h"):
            rates = [points[memory, direction, size]["gbps"] for size in SWEEP_SIZES]
            assert rates == sorted(rates) and rates[0] < 0.7 * rates[-1]
    assert points["pinned", "h2d", 64 * KIB]["gbps"] < points["pinned", "h2d", GIB]["gbps"] / 4
    assert points["pinned", "h2d", GIB]["gbps"] == pytest.approx(H200.h2d_gbps, rel=0.01)  # 55.3 GB/s measured
    assert points["pinned", "h2d", GIB]["gbps"] < H200.link_peak_gbps == 63.0
    # bandwidth.json, CUDA events: pinned 64 KiB 10.5 and 12.6 GB/s, 1 MiB 42.3 and 44.1 GB/s
    assert points["pinned", "h2d", 64 * KIB]["gbps"] == pytest.approx(11.5, rel=0.15)
    assert points["pinned", "h2d", MIB]["gbps"] == pytest.approx(43.2, rel=0.05)


def test_pageable_is_slower_than_pinned_at_every_size_and_registered_is_pinned() -> None:
    points = by_key(bandwidth_sweep(H200, kinds=("pinned", "pageable", "registered")))
    for size in SWEEP_SIZES:
        for direction in ("h2d", "d2h"):
            pinned = points["pinned", direction, size]["gbps"]
            assert points["pageable", direction, size]["gbps"] < pinned
            assert points["registered", direction, size]["gbps"] == pinned
    assert points["pageable", "h2d", GIB]["gbps"] == pytest.approx(H200.pageable_h2d_gbps, rel=0.01)


def test_write_combined_is_swept_only_where_the_profile_has_its_rates() -> None:
    assert sweep_kinds(H200) == SWEEP_MEMORY_KINDS == ("pinned", "pageable", "write-combined")
    old = load_profile("tesla-c1060")
    assert old.host_kinds is None and sweep_kinds(old) == ("pinned", "pageable")
    assert {p["memory"] for p in bandwidth_sweep(old)} == {"pinned", "pageable"}
    with pytest.raises(ValueError, match="the tesla-c1060 profile has no copy rates for write-combined memory"):
        bandwidth_sweep(old, kinds=("write-combined",))
    combined = by_key(bandwidth_sweep(H200, kinds=("write-combined",)))
    assert combined["write-combined", "h2d", GIB]["gbps"] == pytest.approx(H200.host_kinds.wc_h2d_gbps, rel=0.01)
    with pytest.raises(ValueError, match="mapped memory has no copies of its own to measure"):
        bandwidth_sweep(H200, kinds=("mapped",))


def test_sizes_and_kinds_are_checked() -> None:
    with pytest.raises(ValueError, match="memory kind 'cheap' is not one of: pinned, pageable, registered"):
        bandwidth_sweep(H200, kinds=("cheap",))
    with pytest.raises(ValueError, match="transfer size 0 is not a positive whole number"):
        bandwidth_sweep(H200, sizes=(0,))
    with pytest.raises(ValueError, match=r"transfer size 1\.5"):
        bandwidth_sweep(H200, sizes=(1.5,))  # type: ignore[arg-type]


def test_the_backend_sweeps_a_profile_and_says_what_is_wrong() -> None:
    backend = create_backend()
    tesla = backend.bandwidth_sweep(sizes=(16 * MIB,), kinds=("pinned",), device="tesla-k20c")
    assert [p["direction"] for p in tesla] == ["h2d", "d2h"]
    assert tesla[0]["gbps"] < load_profile("tesla-k20c").link_peak_gbps
    with pytest.raises(BackendError, match="memory kind"):
        backend.bandwidth_sweep(kinds=("x",))
    with pytest.raises(BackendError, match="unknown device profile 'nope'"):
        backend.bandwidth_sweep(device="nope")


@pytest.mark.parametrize("key", available_profiles())
def test_every_profile_states_its_link_and_its_limit(key: str) -> None:
    profile = load_profile(key)
    assert profile.link.startswith("PCIe Gen")
    assert profile.h2d_gbps < profile.link_peak_gbps and profile.d2h_gbps < profile.link_peak_gbps
    facts = profile.facts()
    assert facts["link"] == profile.link and facts["link_peak_gbps"] == profile.link_peak_gbps


def test_the_link_limits() -> None:
    assert (H200.link, H200.link_peak_gbps) == ("PCIe Gen5 x16", 63.0)  # 32 GT/s x 16 x 128/130 / 8
    for key in ("tesla-c1060", "tesla-c2050", "tesla-k20c"):
        profile = load_profile(key)
        assert (profile.link, profile.link_peak_gbps) == ("PCIe Gen2 x16", 5 * 16 * 8 / 10 / 8)  # 5 GT/s, 8b/10b
