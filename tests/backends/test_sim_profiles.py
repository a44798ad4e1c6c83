"""Device profiles: complete, and every number with its source."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest

from overlapviz.backends.sim import create_backend
from overlapviz.backends.sim import profile as profile_module
from overlapviz.backends.sim.profile import PROFILE_DIR, ProfileError, available_profiles, load_profile


def test_the_profiles_exist() -> None:
    assert {"h200", "h200-one-copy-engine", "tesla-c1060", "tesla-c2050", "tesla-k20c"} <= set(available_profiles())


def test_the_what_if_profile_is_the_h200_with_one_copy_engine() -> None:
    h200, what_if = load_profile("h200"), load_profile("h200-one-copy-engine")
    assert what_if.copy_engines == 1 and not what_if.separate_copy_directions
    assert "what-if" in what_if.name and "not a real GPU" in what_if.summary
    differ = {f.name for f in fields(h200) if getattr(h200, f.name) != getattr(what_if, f.name)}
    assert differ == {"key", "name", "summary", "copy_engines"}


def test_a_profile_based_on_another_names_a_missing_or_circular_base(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(profile_module, "PROFILE_DIR", tmp_path)
    (tmp_path / "a.toml").write_text('based_on = "b"\n')
    (tmp_path / "b.toml").write_text('based_on = "a"\n')
    (tmp_path / "c.toml").write_text('based_on = "nowhere"\n')
    with pytest.raises(ProfileError, match="goes round in a circle: a -> b -> a"):
        load_profile("a")
    with pytest.raises(ProfileError, match="unknown device profile 'nowhere' \\(the base of 'c'\\)"):
        load_profile("c")


def test_per_size_tables_must_match(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(profile_module, "PROFILE_DIR", tmp_path)
    h200 = (PROFILE_DIR / "h200.toml").read_text()
    (tmp_path / "short.toml").write_text(h200.replace("malloc_us = 60.0", "malloc_us = 60.0\n").replace(
        "alloc_sizes_mib = [64, 256, 1024, 4096]", "alloc_sizes_mib = [64, 256, 1024]"))
    with pytest.raises(ProfileError, match="tables differ in length"):
        load_profile("short")
    (tmp_path / "order.toml").write_text(h200.replace("[64, 256, 1024, 4096]", "[64, 1024, 256, 4096]"))
    with pytest.raises(ProfileError, match="increasing order"):
        load_profile("order")
    (tmp_path / "bad.toml").write_text("[device\n")
    with pytest.raises(ProfileError, match=r"bad\.toml: not valid TOML"):
        load_profile("bad")


@pytest.mark.parametrize("key", available_profiles())
def test_every_number_names_its_source(key: str) -> None:
    for line in (PROFILE_DIR / f"{key}.toml").read_text().splitlines():
        if re.match(r"^\w+\s*=\s*[-\d.e\[]+|^\w+\s*=\s*(true|false)", line):
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


def test_release_kept_buffers_asks_every_loaded_backend_that_keeps_any(monkeypatch):
    from overlapviz.backends import registry

    released = []

    class Keeps:
        def release_buffers(self):
            released.append("keeps")

    class KeepsNothing:
        pass

    monkeypatch.setattr(registry, "_loaded", {"cupy": Keeps(), "sim": KeepsNothing()})
    registry.release_kept_buffers()
    assert released == ["keeps"]
