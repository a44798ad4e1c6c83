"""Finds the backends usable on this machine and says why the others are not.

The CuPy backend is imported only when asked for (or probed by ``auto``), so the model, the
tests and the CLI never touch CUDA on a machine without it.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from dataclasses import dataclass

from overlapviz.backends.base import Backend
from overlapviz.backends.sim.profile import ProfileError, load_profile
from overlapviz.backends.sim.profile_files import is_profile_path
from overlapviz.core.i18n import _
from overlapviz.core.run_errors import BackendError

BACKEND_NAMES = ("cupy", "sim")
BACKEND_ENV = "OVERLAPVIZ_BACKEND"
_MODULES = {"sim": "overlapviz.backends.sim", "cupy": "overlapviz.backends.cupy"}
_loaded: dict[str, Backend] = {}


@dataclass(frozen=True, slots=True)
class BackendStatus:
    """Whether a backend can run here, and why not when it cannot."""

    name: str
    usable: bool
    reason: str


def load_backend(name: str) -> Backend:
    """The backend called `name`, created once per process; `BackendError` says why not."""
    if name not in _MODULES:
        names = ", ".join(("auto", *BACKEND_NAMES))
        raise BackendError(_("unknown backend {name}; choose one of: {names}").format(name=repr(name), names=names))
    if name not in _loaded:
        if name == "cupy" and importlib.util.find_spec("cupy") is None:
            raise BackendError(_("CuPy is not installed (install overlapviz[cuda12] or overlapviz[cuda13])"))
        try:
            module = importlib.import_module(_MODULES[name])
        except ImportError as error:
            raise BackendError(
                _("the {name} backend cannot be loaded: {error}").format(name=name, error=error)
            ) from error
        _loaded[name] = module.create_backend()
    return _loaded[name]


def release_kept_buffers() -> None:
    """Give back what every loaded backend keeps for its next run (the real GPU's pinned buffers)."""
    for backend in list(_loaded.values()):
        release = getattr(backend, "release_buffers", None)
        if callable(release):
            release()


def profile_file_backend(name: str, device: str) -> Backend | None:
    """The model, when `device` is a profile file given by its path (``--device ./my-gpu.toml``).

    None when `device` is no path, or `name` asks for a backend that runs no profiles.
    Raises `BackendError` saying why when the file is not a profile the model can run.
    """
    if name == "cupy" or not is_profile_path(device):
        return None
    try:
        load_profile(device)
    except ProfileError as error:
        raise BackendError(str(error)) from None
    return load_backend("sim")


def probe_backends() -> list[BackendStatus]:
    """Every backend with whether it is usable here."""
    statuses = []
    for name in BACKEND_NAMES:
        try:
            backend = load_backend(name)
            usable = bool(backend.devices())
            reason = _("ready") if usable else _("no device found")
        except BackendError as error:
            usable, reason = False, str(error)
        statuses.append(BackendStatus(name, usable, reason))
    return statuses


def resolve_backend(name: str = "auto") -> Backend:
    """`name`, or for ``auto`` the one in $OVERLAPVIZ_BACKEND, else the real GPU, else the model."""
    if name == "auto":
        name = os.environ.get(BACKEND_ENV, "auto")
    if name != "auto":
        return load_backend(name)
    for status in probe_backends():
        if status.usable:
            return load_backend(status.name)
    raise BackendError(_("no backend is usable"))  # the model always is, so this means a broken install
