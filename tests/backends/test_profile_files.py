"""Profiles from the user's folder and from a path: found, listed, run, and refused in words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from overlapviz.backends import registry
from overlapviz.backends.sim import create_backend
from overlapviz.backends.sim.profile import PROFILE_DIR, ProfileError, load_profile, user_profiles
from overlapviz.backends.sim.profile_files import is_profile_path, is_valid_key, user_profile_dir
from overlapviz.commands.main import main
from overlapviz.session import UnknownDeviceError, find_backend

H200_TEXT = (PROFILE_DIR / "h200.toml").read_text()


@pytest.fixture
def config_home(tmp_path, monkeypatch) -> Path:
    """An empty user profile folder of this test's own."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    folder = tmp_path / "config" / "overlapviz" / "profiles"
    folder.mkdir(parents=True)
    return folder


def a_profile(name: str = "My GPU (calibrated)", h2d: str = "55.3") -> str:
    return H200_TEXT.replace('name = "NVIDIA H200 (model)"', f'name = "{name}"').replace(
        "h2d_gbps = 55.3 ", f"h2d_gbps = {h2d} "
    )


def test_the_user_folder_follows_xdg_config_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert user_profile_dir() == tmp_path / "overlapviz" / "profiles"
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/path")  # the specification says: ignore it
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert user_profile_dir() == tmp_path / "home" / ".config" / "overlapviz" / "profiles"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert user_profile_dir() == tmp_path / "home" / ".config" / "overlapviz" / "profiles"


@pytest.mark.parametrize(("device", "path"), [("h200", False), ("my-gpu", False), ("my.toml", True),
                                               ("dir/my-gpu", True), ("/abs/x.toml", True)])
def test_a_path_is_told_from_a_key(device, path):
    assert is_profile_path(device) is path


@pytest.mark.parametrize(("name", "valid"), [("nvidia-h200-calibrated", True), ("gpu_2.b", True), ("", False),
                                             (".hidden", False), ("a/b", False), ("a b", False)])
def test_profile_keys_are_plain_names(name, valid):
    assert is_valid_key(name) is valid


def test_a_profile_in_the_user_folder_is_listed_and_loads_by_name(config_home):
    (config_home / "my-gpu.toml").write_text(a_profile(h2d="42.0"))
    assert user_profiles() == ["my-gpu"]
    profile = load_profile("my-gpu")
    assert profile.key == "my-gpu" and profile.h2d_gbps == 42.0 and profile.name == "My GPU (calibrated)"
    keys = [info.key for info in create_backend().devices()]
    assert keys[0] == "h200" and keys[-1] == "my-gpu"


def test_a_broken_user_profile_is_left_out_of_the_list_but_named_when_asked_for(config_home):
    (config_home / "good.toml").write_text(a_profile())
    (config_home / "broken.toml").write_text("[device\n")
    assert user_profiles() == ["good"]
    assert "broken" not in [info.key for info in create_backend().devices()]
    with pytest.raises(ProfileError, match=r"broken\.toml: not valid TOML"):
        load_profile("broken")


def test_a_shipped_name_is_never_taken_from_the_user_folder(config_home):
    (config_home / "h200.toml").write_text(a_profile(name="impostor"))
    assert user_profiles() == []
    assert load_profile("h200").name == "NVIDIA H200 (model)"


def test_a_user_profile_may_be_based_on_a_shipped_one(config_home):
    (config_home / "what-if.toml").write_text('based_on = "h200"\n[link]\nh2d_gbps = 30.0 # a what-if\n')
    assert load_profile("what-if").h2d_gbps == 30.0 and load_profile("what-if").sm_count == 132


def test_a_profile_file_loads_by_its_path_with_the_path_as_its_key(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(a_profile(h2d="12.5"))
    profile = load_profile(str(path))
    assert profile.key == str(path) and profile.h2d_gbps == 12.5


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "there is no such file"),
        ("folder", "it is a folder"),
        ("[device\n", "not valid TOML"),
        (a_profile(h2d="0.0"), "h2d_gbps must be above zero, not 0.0"),
        (a_profile(h2d='"fast"'), "h2d_gbps must be numbers, not 'fast'"),
        (a_profile().replace("sm_count = 132 ", "sm_count = 13.2 "), "sm_count must be whole numbers"),
        (a_profile().replace("concurrent_kernels = true ", "concurrent_kernels = 1 "), "must be true or false"),
        (a_profile().replace("alloc_sizes_mib = [64, 256, 1024, 4096]", "alloc_sizes_mib = 64"),
         "must be a list of numbers"),
        ("top = 3\n", "every value belongs in a [section]"),
        ("[x]\nfoo = 1\n", "missing"),
    ],
)
def test_a_bad_profile_file_is_one_clear_message(tmp_path, content, message):
    path = tmp_path / "bad.toml"
    if content == "folder":
        path.mkdir()
    elif content is not None:
        path.write_text(content)
    with pytest.raises(ProfileError) as error:
        load_profile(str(path))
    assert message in str(error.value) and "\n" not in str(error.value)


def test_the_model_runs_a_profile_file_and_a_bad_one_is_bad_input(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(a_profile())
    assert find_backend("auto", str(path)).name == "sim"
    assert find_backend("sim", str(path)).name == "sim"
    assert registry.profile_file_backend("cupy", str(path)) is None  # the GPU backend runs no profiles
    with pytest.raises(UnknownDeviceError, match="there is no such file"):
        find_backend("auto", str(tmp_path / "missing.toml"))


def test_run_with_a_profile_file_and_with_a_bad_one(tmp_path, capsys):
    path = tmp_path / "mine.toml"
    path.write_text(a_profile(name="Calibrated test GPU"))
    assert main(["run", "--backend", "sim", "--device", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["device_name"] == "Calibrated test GPU" and report["simulated"] is True
    (tmp_path / "broken.toml").write_text(a_profile(h2d="-1"))
    assert main(["run", "--device", str(tmp_path / "broken.toml")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("overlapviz: error: ") and "h2d_gbps must be finite and not negative" in err
    assert len(err.strip().splitlines()) == 1


def test_devices_lists_the_users_profiles(config_home, capsys, monkeypatch):
    (config_home / "my-gpu.toml").write_text(a_profile(name="My calibrated GPU"))
    monkeypatch.setattr(registry, "_loaded", {})
    monkeypatch.setattr(registry.importlib.util, "find_spec", lambda name: None)  # no CuPy here
    assert main(["devices"]) == 0
    out = capsys.readouterr().out
    profiles = out.split("simulated profiles", 1)[1]
    assert "my-gpu" in profiles and "My calibrated GPU" in profiles


def test_a_user_profile_nested_too_deeply_is_left_out_and_named_when_asked_for(config_home):
    (config_home / "good.toml").write_text(a_profile())
    (config_home / "deep.toml").write_text("[device]\nx = " + "[" * 5000 + "]" * 5000 + "\n")
    assert user_profiles() == ["good"]
    with pytest.raises(ProfileError, match=r"deep\.toml: not valid TOML \(it nests arrays or tables too deeply\)"):
        load_profile("deep")
