"""Device profiles: complete, and every number with its source."""

from __future__ import annotations

import re

import pytest

from overlapviz.backends.sim import create_backend
from overlapviz.backends.sim.profile import PROFILE_DIR, ProfileError, available_profiles, load_profile


def test_the_four_profiles_exist() -> None:
    assert {"h200", "tesla-c1060", "tesla-c2050", "tesla-k20c"} <= set(available_profiles())


@pytest.mark.parametrize("key", available_profiles())
def test_every_number_names_its_source(key: str) -> None:
    for line in (PROFILE_DIR / f"{key}.toml").read_text().splitlines():
        if re.match(r"^\w+\s*=\s*[-\d.e]+|^\w+\s*=\s*(true|false)", line):
            assert "#" in line and len(line.split("#", 1)[1].strip()) > 5, line


@pytest.mark.parametrize("key", available_profiles())
def test_profiles_load(key: str) -> None:
    profile = load_profile(key)
    assert profile.h2d_gbps > profile.pageable_h2d_gbps > 0
    assert 0 < profile.bidirectional_factor <= 1


def test_unknown_profile() -> None:
    with pytest.raises(ProfileError, match="known: h200"):
        load_profile("nope")


def test_devices_lists_h200_first() -> None:
    devices = create_backend().devices()
    assert devices[0].key == "h200"
    assert all(device.simulated for device in devices)
