"""Where device profiles live: the shipped folder, the user's own folder, or a path given.

A profile is named by its key (``h200``: ``profiles/h200.toml``; ``my-gpu``: a file in the
user's folder, ``$XDG_CONFIG_HOME/overlapviz/profiles/my-gpu.toml``, by default under
``~/.config``) or by a path to its file (``--device ./my-gpu.toml``). A shipped profile
keeps its name: a user's file of the same name is not used.
"""

from __future__ import annotations

import os
from pathlib import Path

SUFFIX = ".toml"
CONFIG_ENV = "XDG_CONFIG_HOME"


def user_profile_dir() -> Path:
    """The user's profile folder: ``$XDG_CONFIG_HOME/overlapviz/profiles``, else ``~/.config/...``.

    A relative ``$XDG_CONFIG_HOME`` is ignored, as the XDG base directory specification says.
    """
    configured = os.environ.get(CONFIG_ENV, "")
    root = Path(configured) if configured and Path(configured).is_absolute() else Path.home() / ".config"
    return root / "overlapviz" / "profiles"


def is_profile_path(device: str) -> bool:
    """Whether `device` names a profile file (it ends in .toml or names a folder) rather than a key."""
    return device.endswith(SUFFIX) or "/" in device or os.sep in device


def profile_file(key: str, shipped_dir: Path) -> Path:
    """The file that profile `key` is read from (it may not exist: the caller says so).

    A path is taken as given (``~`` expanded); a key is looked up in the shipped folder,
    then in the user's.
    """
    if is_profile_path(key):
        return Path(key).expanduser()
    shipped = shipped_dir / f"{key}{SUFFIX}"
    if shipped.is_file():
        return shipped
    return user_profile_dir() / f"{key}{SUFFIX}"


def user_profile_keys(shipped_dir: Path) -> list[str]:
    """Keys of the profile files in the user's folder, sorted, without those a shipped one hides."""
    folder = user_profile_dir()
    try:
        stems = sorted(path.stem for path in folder.glob(f"*{SUFFIX}") if path.is_file())
    except OSError:  # no folder, or one we may not read: no user profiles
        return []
    return [stem for stem in stems if not (shipped_dir / f"{stem}{SUFFIX}").is_file()]


def is_valid_key(name: str) -> bool:
    """Whether `name` can be a profile key: letters, digits, '-', '_' and '.', not starting with '.'."""
    return bool(name) and not name.startswith(".") and all(c.isalnum() or c in "-_." for c in name)
