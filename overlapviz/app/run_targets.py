"""What the app can run on: the real GPU when there is one, and every simulated device."""

from __future__ import annotations

import os
from dataclasses import dataclass

from overlapviz.backends.registry import BACKEND_ENV, load_backend, probe_backends
from overlapviz.core.i18n import _
from overlapviz.core.run_errors import BackendError


@dataclass(frozen=True, slots=True)
class RunTarget:
    """One backend and one of its devices, and the title "Run on" gives it.

    `words` is the title as made: a device's name with what it is (`target_title`), or words of
    the app's own marked with `N_`, so that `title` says them in the language active when shown.
    """

    backend: str
    device: str
    words: str
    simulated: bool

    @property
    def title(self) -> str:
        """The target's title in the active language."""
        return _(self.words) if self.words else ""  # gettext's "" is the catalogue's header


def available_targets() -> list[RunTarget]:
    """Every usable (backend, device), real GPUs first."""
    targets = []
    for status in probe_backends():
        if not status.usable:
            continue
        try:
            devices = load_backend(status.name).devices()
        except BackendError:
            continue
        for info in devices:
            title = target_title(info.name, status.name, info.simulated)
            targets.append(RunTarget(status.name, info.key, title, info.simulated))
    return targets


def target_title(name: str, backend: str, simulated: bool) -> str:
    """``NVIDIA H200 (real GPU, cupy)`` or ``Tesla C1060 (model)``: real or simulated, always said."""
    if not simulated:
        return _("{name} (real GPU, {backend})").format(name=name, backend=backend)
    return name if "(model)" in name or "simulated" in name.lower() else _("{name} (model)").format(name=name)


def default_target(targets: list[RunTarget]) -> RunTarget | None:
    """What ``auto`` picks: the backend named in $OVERLAPVIZ_BACKEND, else the first usable one.

    `targets` come in the registry's order (the real GPU first), so this needs no second probe
    of the backends, which on a GPU machine costs real time at start-up.
    """
    wanted = os.environ.get(BACKEND_ENV, "auto")
    return next((t for t in targets if wanted in ("auto", t.backend)), targets[0] if targets else None)
