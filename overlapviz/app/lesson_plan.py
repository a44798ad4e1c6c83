"""Where each side of a lesson runs: the device it names, or the app's default.

A lesson that names no device runs where `auto` would (the real GPU when there is one, else
the H200 model). A lesson that names a simulated device (a Tesla, a what-if machine, the
H200 whose RAM the guard measures) runs on that model even when a real GPU is here, and
says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from overlapviz.app.pair_run import SideRequest
from overlapviz.app.run_targets import RunTarget
from overlapviz.core.i18n import _, pgettext
from overlapviz.presets import Preset


class LessonUnavailableError(ValueError):
    """A device the lesson needs is not here; the message names it."""


@dataclass(frozen=True)
class LessonPlan:
    """The sides to run (one, or two for a comparison) and a note to show, if any."""

    sides: tuple[SideRequest, ...]
    note: str = ""


def plan_lesson(preset: Preset, targets: list[RunTarget], default: RunTarget | None) -> LessonPlan:
    """Pick the target of every side of `preset`.

    Raises
    ------
    LessonUnavailableError
        A side's device (or backend) is not among `targets`.
    """
    sides = []
    for config, device, label in zip(preset.configs, preset.devices, preset.labels, strict=True):
        target = _target_for(device, preset.backend, targets, default)
        sides.append(SideRequest(config, target, label if preset.is_comparison else ""))
    return LessonPlan(tuple(sides), _model_note([side.target for side in sides], default))


def _target_for(
    device: str | None, backend: str | None, targets: list[RunTarget], default: RunTarget | None
) -> RunTarget:
    wanted_backend = None if backend in (None, "auto") else backend
    if device is None and wanted_backend is None and default is not None:
        return default
    for target in targets:
        if (device is None or target.device == device) and wanted_backend in (None, target.backend):
            return target
    if device:
        message = _("This lesson runs on the device {device}, which is not available here.").format(device=repr(device))
    else:
        message = _("This lesson runs on the {backend} backend, which is not available here.").format(
            backend=wanted_backend
        )
    raise LessonUnavailableError(message)


def _model_note(chosen: list[RunTarget], default: RunTarget | None) -> str:
    if default is None or default.simulated or all(not target.simulated for target in chosen):
        return ""
    models = pgettext("list", ", ").join(dict.fromkeys(target.title for target in chosen if target.simulated))
    return _(
        "Simulated: this lesson runs on the model ({models}), not on {device}, because it is about that machine."
    ).format(models=models, device=default.title)
