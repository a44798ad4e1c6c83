"""``overlapviz calibrate``: measure this machine's GPU and write a device profile the model runs.

The measuring is `overlapviz.backends.cupy.calibrate`'s, the fitting `backends.calibration`'s,
the file `backends.sim.profile_writer`'s; this module is the command: where the profile goes
(the user's profile folder by default, so ``--device NAME`` finds it), a progress bar on
stderr, a short report on stdout. Bad input, an existing file without ``--force``, or no
usable GPU are one line and exit code 2, before anything is measured.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TextIO

from overlapviz.backends import registry
from overlapviz.backends.calibration import CalibrationError, Measurements, Sourced, profile_values
from overlapviz.backends.sim.profile import ProfileError, available_profiles, load_profile
from overlapviz.backends.sim.profile_files import SUFFIX, is_valid_key, user_profile_dir
from overlapviz.backends.sim.profile_writer import nearest_profile, profile_toml
from overlapviz.core.files.atomic_write import atomic_write_text
from overlapviz.core.i18n import _
from overlapviz.core.run_errors import BackendError
from overlapviz.run_report import labelled

BAR_WIDTH = 30
DEVICE_PREFIX = "cuda:"
UsageFailure = Callable[[str], NoReturn]


def add_calibrate(commands: Any) -> None:
    """Add ``overlapviz calibrate`` (its parser's `error` is how the command reports bad input)."""
    calibrate = commands.add_parser(
        "calibrate",
        help=_("measure this machine's GPU (under a minute) and write a device profile for the model"),
        description=_(
            "Measure this machine's NVIDIA GPU: copy bandwidth by size (pinned and pageable, each direction, both at"
            " once), host time per call, the pipeline kernel's rate and latency. Write a device profile the model runs"
            " like the shipped ones: by default into the user's profile folder ({folder}), where 'overlapviz devices'"
            " lists it and '--device NAME' finds it."
        ).format(folder=user_profile_dir()),
    )
    calibrate.set_defaults(command=calibrate_command, usage_error=calibrate.error)
    calibrate.add_argument("--device", default=f"{DEVICE_PREFIX}0", metavar="cuda:N",
                           help=_("the GPU (default cuda:0)"))
    where = calibrate.add_mutually_exclusive_group()
    where.add_argument("--name", metavar="NAME", help=_("the profile's name in the user's folder (default: the GPU's)"))
    where.add_argument("-o", "--output", type=Path, metavar="FILE.toml",
                       help=_("write the profile to this file instead"))
    calibrate.add_argument("--force", action="store_true", help=_("replace a profile file that exists"))


def calibrate_command(args: argparse.Namespace) -> int:
    """Measure, fit, write; returns the exit code (bad input raises through `args.usage_error`)."""
    fail: UsageFailure = args.usage_error
    index = device_index(args.device, fail)
    names = usable_gpus(fail)
    if index >= len(names):
        fail(_("--device: there is no GPU {device}; this machine has {gpus}").format(
            device=args.device, gpus=", ".join(_keys(names))
        ))
    gpu = names[index]
    destination = destination_of(args.output, args.name or default_name(gpu), fail)
    if destination.exists() and not args.force:
        fail(_("{path} exists; --force replaces it").format(path=destination))
    from overlapviz.backends.cupy.calibrate import measure

    with ProgressBar(sys.stderr) as bar:
        measured = measure(index, bar.update)
    text, base, values = profile_text(measured)
    check_loads(text)
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(destination, text)
    except OSError as error:
        raise BackendError(_("cannot write {path}: {error}").format(path=destination, error=error)) from None
    print("\n".join(report_lines(measured, values, destination, base, args.output is None)))
    return 0


def device_index(device: str, fail: UsageFailure) -> int:
    """``cuda:1`` (or ``1``) -> 1."""
    text = device.removeprefix(DEVICE_PREFIX)
    if not text.isdigit():
        fail(_("--device: {device} is not a GPU; use {first}, {second}, ...").format(
            device=repr(device), first=f"{DEVICE_PREFIX}0", second=f"{DEVICE_PREFIX}1"
        ))
    return int(text)


def usable_gpus(fail: UsageFailure) -> list[str]:
    """The names of this machine's GPUs, by index; no GPU at all is bad input for calibrate."""
    try:
        registry.load_backend("cupy")
    except BackendError as error:
        fail(_("calibrate measures a real NVIDIA GPU, and there is none to use here: {error}").format(error=error))
    from overlapviz.backends.cupy.calibrate import gpu_names

    names = gpu_names()
    if not names:
        fail(_("calibrate measures a real NVIDIA GPU, and CUDA finds none on this machine"))
    return names


def _keys(names: list[str]) -> list[str]:
    return [f"{DEVICE_PREFIX}{index} ({name})" for index, name in enumerate(names)]


def default_name(gpu_name: str) -> str:
    """The profile name for a GPU: ``NVIDIA H200`` -> ``nvidia-h200-calibrated``."""
    slug = re.sub(r"[^a-z0-9]+", "-", gpu_name.lower()).strip("-") or "gpu"
    return f"{slug}-calibrated"


def destination_of(output: Path | None, name: str, fail: UsageFailure) -> Path:
    """Where the profile goes: `output`, else NAME.toml in the user's folder (checked, not created)."""
    if output is None:
        if not is_valid_key(name):
            fail(_("--name: {name} is not a profile name; use letters, digits, '-', '_' and '.'").format(
                name=repr(name)
            ))
        if name in available_profiles():
            fail(_("--name: {name} is a shipped profile's name; choose another").format(name=repr(name)))
        return user_profile_dir() / f"{name}{SUFFIX}"
    if output.suffix != SUFFIX:
        fail(_("--output: {path} must end in {suffix}, so that --device {path} reads it as a profile").format(
            path=output, suffix=SUFFIX
        ))
    if output.is_dir():
        fail(_("--output: {path} is a folder").format(path=output))
    if not output.parent.is_dir():
        fail(_("--output: the folder {folder} does not exist").format(folder=output.parent))
    return output


def profile_text(measured: Measurements) -> tuple[str, str, dict[str, Sourced]]:
    """The profile's TOML, the shipped profile its other numbers come from, and the values measured."""
    base = nearest_profile(measured.gpu_name)
    try:
        values = profile_values(measured, base)
    except CalibrationError as error:
        raise BackendError(_("the measurements do not give a profile: {error}").format(error=error)) from None
    facts = measured.facts
    header = [
        f"{measured.gpu_name} ({facts.get('link') or 'link unknown'}), measured by overlapviz calibrate on"
        f" {measured.date}: CUDA runtime {facts.get('runtime_version', '?')}, driver"
        f" {facts.get('driver') or facts.get('driver_cuda_version', '?')}, CuPy {facts.get('cupy_version', '?')}.",
        "Every number says where it comes from: measured here by overlapviz calibrate, or, where calibrate does not",
        f"measure it, the shipped {base} profile's value (the nearest shipped GPU).",
    ]
    measured_by = f"measured by overlapviz calibrate ({measured.gpu_name}, {measured.date})"
    return profile_toml(values, base, measured_by, header), base, values


def check_loads(text: str) -> None:
    """Load the profile as the model will, before it replaces anything."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"check{SUFFIX}"
        path.write_text(text)
        try:
            load_profile(str(path))
        except ProfileError as error:
            raise BackendError(_("the profile written would not load: {error}").format(error=error)) from None


def report_lines(
    measured: Measurements, values: dict[str, Sourced], destination: Path, base: str, in_user_folder: bool
) -> list[str]:
    """What was measured, in a few lines, and how to run the profile."""

    def n(key: str) -> Any:
        return values[key].value

    run_with = destination.stem if in_user_folder else str(destination)
    return [
        labelled(_("device"), _("{gpu}, measured {date}"), gpu=measured.gpu_name, date=measured.date),
        labelled(_("copies"), _(
            "pinned H2D {h2d} GB/s, D2H {d2h} GB/s, fixed cost {latency} us; both ways x{both}; pageable H2D"
            " {pageable_h2d} GB/s, D2H {pageable_d2h} GB/s"
        ), h2d=n("h2d_gbps"), d2h=n("d2h_gbps"), latency=n("copy_latency_us"), both=n("bidirectional_factor"),
            pageable_h2d=n("pageable_h2d_gbps"), pageable_d2h=n("pageable_d2h_gbps")),
        labelled(_("kernel"), _(
            "launch {launch} us; FMA {base} ns/element + {per_iteration} ns/element-iteration, latency {latency} ns"
        ), launch=n("kernel_launch_us"), base=n("fma_base_ns_per_element"), per_iteration=n("fma_ns_per_element_iter"),
            latency=n("fma_latency_ns")),
        labelled(_("host"), _("cudaMemcpyAsync {memcpy} us, kernel launch {launch} us per call"),
                 memcpy=n("memcpy_call_us"), launch=n("launch_call_us")),
        _("not measured: the {base} profile's values (each line of the file says which)").format(base=base),
        labelled(_("wrote"), "{path}", path=str(destination)),
        labelled(_("run it"), "overlapviz run --device {profile}", profile=run_with),
    ]  # fmt: skip


class ProgressBar:
    """A text bar on `stream`: redrawn in place on a terminal, one line per step elsewhere."""

    def __init__(self, stream: TextIO, width: int = BAR_WIDTH) -> None:
        self.stream = stream
        self.width = width
        self.live = stream.isatty()

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *_: object) -> None:
        if self.live:
            self.stream.write("\n")
            self.stream.flush()

    def update(self, share: float, step: str) -> None:
        """Show `share` (0 to 1) done, and the step now starting."""
        line = progress_line(share, step, self.width)
        self.stream.write(f"\r{line:<{self.width + 48}}" if self.live else f"{line}\n")
        self.stream.flush()


def progress_line(share: float, step: str, width: int = BAR_WIDTH) -> str:
    """``[#########.....................]  30% pinned copies by size``."""
    share = min(1.0, max(0.0, share))
    filled = round(share * width)
    return f"[{'#' * filled}{'.' * (width - filled)}] {round(share * 100):3d}% {step}"
