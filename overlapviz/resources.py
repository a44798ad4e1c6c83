"""The one place that finds ui/, kernels/ and assets/, in a checkout and in an installed wheel.

In a checkout they sit beside the package; the wheel maps them into ``overlapviz/_data/``
(see ``[tool.hatch.build.targets.wheel.force-include]`` in pyproject.toml).
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_RESOURCE_DIRS = ("ui", "kernels", "assets")


def resource_root() -> Path:
    """The folder that holds ui/, kernels/ and assets/."""
    installed = _PACKAGE / "_data"
    return installed if installed.is_dir() else _PACKAGE.parent


def resource_path(*parts: str) -> Path:
    """A path under ui/, kernels/ or assets/, e.g. ``resource_path("assets", "presets")``."""
    if not parts or parts[0] not in _RESOURCE_DIRS:
        raise ValueError(f"resources live under one of {_RESOURCE_DIRS}, not {parts!r}")
    return resource_root().joinpath(*parts)


def ui_path(name: str) -> Path:
    """A form or stylesheet in ui/."""
    return resource_path("ui", name)


def kernel_source(name: str) -> str:
    """The text of a CUDA source in kernels/."""
    return resource_path("kernels", name).read_text(encoding="utf-8")


def asset_path(*parts: str) -> Path:
    """A file or folder under assets/."""
    return resource_path("assets", *parts)
