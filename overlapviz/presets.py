"""Presets: named pipelines (or A/B pairs of pipelines) with a title and a short text.

Each preset is a TOML file in ``assets/presets/``; its name is the file's stem. The format is
described in ``docs/presets.md``: ``title``, ``text``, optional ``device``, ``backend`` and
``lesson``, then either a ``[config]`` table or two tables ``[a]`` and ``[b]`` (each with a
``label``, and optionally its own ``device``). Config keys are `PipelineConfig` fields, with
``size`` for the total size (``"256MiB"`` or a byte count); keys not given take the
`PipelineConfig` defaults. Presets with a ``lesson`` number are the lessons, stepped through
in that order (`lessons`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from overlapviz.backends.registry import BACKEND_NAMES
from overlapviz.core.config import ConfigError, PipelineConfig, parse_size
from overlapviz.core.config.setting import Setting
from overlapviz.core.config.settings import SETTINGS
from overlapviz.core.files.safe_read import read_input_bytes
from overlapviz.core.files.toml_text import TomlError, parse_toml
from overlapviz.core.i18n import _, content_text
from overlapviz.resources import asset_path

PRESET_SUFFIX = ".toml"
MAX_PRESET_BYTES = 1024**2  # a preset is a few dozen lines: a larger file is not one, and is not read whole
_TOP_KEYS = {"title", "text", "device", "backend", "lesson", "config", "a", "b"}
# The keys of [a]/[b] that are not pipeline settings: what each is and its default, as the
# table of docs/presets.md gives them (docs/make_presets_table.py writes it).
SIDE_KEYS: dict[str, tuple[str, str]] = {
    "label": (
        "in `[a]`/`[b]`: the name of that side of the comparison (required); in `[config]`: optional",
        "the title",
    ),
    "device": (
        "in `[a]`/`[b]` only: the device that side runs on, instead of the top-level `device`",
        "the top-level `device`",
    ),
}
# The settings a preset gives under a key of their own (size for size_bytes)
_RENAMED = [setting for setting in SETTINGS if setting.preset_key != setting.name]
_BACKENDS = ("auto", *BACKEND_NAMES)


class PresetError(ValueError):
    """A preset file is wrong, or no preset has the asked-for name; the message says which."""


class UnknownPresetError(PresetError, KeyError):
    """No preset has that name; the message lists the names there are."""

    def __str__(self) -> str:
        # KeyError would print the message in quotes
        return str(self.args[0])


@dataclass(frozen=True, slots=True)
class Preset:
    """A named pipeline, or two of them to compare, with the words that explain it."""

    name: str
    title: str
    text: str
    configs: tuple[PipelineConfig, ...]  # one, or two for an A/B comparison
    labels: tuple[str, ...]  # one per config
    device: str | None = None  # the device of every side that names none of its own
    backend: str | None = None
    devices: tuple[str | None, ...] = ()  # one per config; left empty, `device` for each
    lesson: int | None = None  # the position among the lessons; None for a plain preset

    def __post_init__(self) -> None:
        if not self.devices:
            object.__setattr__(self, "devices", (self.device,) * len(self.configs))
        if len(self.devices) != len(self.configs):
            raise PresetError(f"{len(self.devices)} devices for {len(self.configs)} configs")

    @property
    def is_comparison(self) -> bool:
        """Whether the preset compares two pipelines."""
        return len(self.configs) == 2

    @property
    def is_lesson(self) -> bool:
        """Whether the preset is one of the lessons."""
        return self.lesson is not None


def presets_folder() -> Path:
    """Return the folder the shipped presets live in."""
    return asset_path("presets")


def load_presets(folder: Path | None = None) -> dict[str, Preset]:
    """Load every preset in `folder` (default: the shipped ones), by name, sorted by name.

    Raises
    ------
    PresetError
        A file is not a valid preset; the message names the file and the problem.
    """
    folder = presets_folder() if folder is None else folder
    paths = sorted(folder.glob(f"*{PRESET_SUFFIX}"))
    presets = {path.stem: load_preset(path) for path in paths}
    _check_lesson_numbers(folder, presets)
    return presets


def lessons(folder: Path | None = None) -> list[Preset]:
    """Return the lessons among the presets in `folder` (default: the shipped ones), in lesson order.

    Raises
    ------
    PresetError
        A file is not a valid preset, or two presets claim the same lesson number.
    """
    found = [preset for preset in load_presets(folder).values() if preset.lesson is not None]
    return sorted(found, key=lambda preset: preset.lesson or 0)


def _check_lesson_numbers(folder: Path, presets: dict[str, Preset]) -> None:
    owners: dict[int, str] = {}
    for name, preset in presets.items():
        if preset.lesson is None:
            continue
        if preset.lesson in owners:
            message = _(
                "{folder}: {first}.toml and {second}.toml are both lesson {lesson}; give each lesson its own number"
            )
            first = owners[preset.lesson]
            raise PresetError(message.format(folder=folder, first=first, second=name, lesson=preset.lesson))
        owners[preset.lesson] = name


def preset_names(folder: Path | None = None) -> list[str]:
    """List the names of the presets in `folder` (default: the shipped ones), sorted."""
    folder = presets_folder() if folder is None else folder
    return sorted(path.stem for path in folder.glob(f"*{PRESET_SUFFIX}"))


def get_preset(name: str, folder: Path | None = None) -> Preset:
    """Load the preset called `name`.

    Raises
    ------
    UnknownPresetError
        No such preset; the message lists the names there are.
    PresetError
        Its file is not a valid preset.
    """
    folder = presets_folder() if folder is None else folder
    path = folder / f"{name}{PRESET_SUFFIX}"
    if "/" in name or "\\" in name or not _is_file(path):
        known = ", ".join(preset_names(folder)) or _("none")
        message = _("unknown preset {name}; the presets are: {known}")
        raise UnknownPresetError(message.format(name=repr(name), known=known))
    return load_preset(path)


def _is_file(path: Path) -> bool:
    """Whether `path` is a file; False, not an error, for a name the file system cannot hold."""
    try:
        return path.is_file()
    except OSError:  # a name longer than the file system allows, say
        return False


def load_preset(path: Path) -> Preset:
    """Read and check one preset file (UTF-8, with or without a byte order mark; see `core.files.safe_read`).

    Raises
    ------
    PresetError
        The file cannot be read, is not a regular file, is over the input size limit, or is
        not a valid preset; the message names the file.
    """
    try:
        data = parse_toml(read_input_bytes(path, what="preset", max_bytes=MAX_PRESET_BYTES).decode("utf-8-sig"))
        return _preset_from(path.stem, data)
    except OSError as error:
        message = _("{file}: cannot be read ({error})")
        raise PresetError(message.format(file=path, error=error.strerror or error)) from None
    except (TomlError, UnicodeDecodeError) as error:
        raise PresetError(_("{file}: not valid TOML ({error})").format(file=path, error=error)) from None
    except (PresetError, ConfigError) as error:
        raise PresetError(f"{path}: {error}") from None


def _preset_from(name: str, data: dict[str, Any]) -> Preset:
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        allowed = ", ".join(sorted(_TOP_KEYS))
        raise PresetError(_("unknown key {key}; allowed: {allowed}").format(key=repr(unknown[0]), allowed=allowed))
    tables = _config_tables(data)
    backend = _optional_text(data, "backend")
    if backend is not None and backend not in _BACKENDS:
        allowed = ", ".join(_BACKENDS)
        message = _("backend {backend} is not one of: {allowed}")
        raise PresetError(message.format(backend=repr(backend), allowed=allowed))
    device = _optional_text(data, "device")
    # The words are read in the active language (the files are their English source): it is
    # chosen once, at start, before any preset is loaded.
    return Preset(
        name=name,
        title=content_text(_required_text(data, "title")),
        text=content_text(_required_text(data, "text")),
        configs=tuple(config_from_table(table, table_name) for table_name, table in tables),
        labels=tuple(content_text(_label_of(table_name, table, data)) for table_name, table in tables),
        device=device,
        backend=backend,
        devices=tuple(_side_device(table_name, table, device) for table_name, table in tables),
        lesson=_lesson_number(data),
    )


def _side_device(table_name: str, table: dict[str, Any], default: str | None) -> str | None:
    if "device" not in table:
        return default
    if table_name == "config":
        raise PresetError(_("[config] cannot name a device; give it at the top of the file (device = ...)"))
    try:
        return _optional_text(table, "device")
    except PresetError as error:
        raise PresetError(f"[{table_name}] {error}") from None


def _lesson_number(data: dict[str, Any]) -> int | None:
    value = data.get("lesson")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        message = _("lesson must be a whole number from 1 (its place among the lessons), not {value}")
        raise PresetError(message.format(value=repr(value)))
    return value


def _config_tables(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """[("config", table)] or [("a", table), ("b", table)], or why neither is there."""
    present = [key for key in ("config", "a", "b") if key in data]
    if present not in (["config"], ["a", "b"]):
        raise PresetError(_("give either a [config] table, or two tables [a] and [b] to compare"))
    for key in present:
        if not isinstance(data[key], dict):
            raise PresetError(_("{key} must be a table, written [{key}]").format(key=key))
    return [(key, data[key]) for key in present]


def config_from_table(
    table: dict[str, Any], table_name: str = "config", base: PipelineConfig | None = None
) -> PipelineConfig:
    """The pipeline a preset-style table gives: its settings over `base` (default: the defaults).

    The one validator of pipeline settings given as a table of keys: the preset files, the
    exercises, a learner's answer and the lab server's requests all go through it, so all refuse
    the same things with the same words.

    Raises
    ------
    PresetError
        A key is unknown, or a value has the wrong type or is out of range; the one-line
        message starts with ``[table_name]`` and names the key.
    """
    values = {key: value for key, value in table.items() if key not in SIDE_KEYS}
    try:
        for setting in _RENAMED:
            _rename(values, setting)
        return PipelineConfig.from_dict(values if base is None else {**base.to_dict(), **values})
    except (ConfigError, PresetError) as error:
        raise PresetError(f"[{table_name}] {error}") from None


def _rename(values: dict[str, Any], setting: Setting[object]) -> None:
    """Give `setting`'s value under its field name, a size written as text read as bytes."""
    if setting.preset_key not in values:
        return
    if setting.name in values:
        raise PresetError(_("gives both {key} and {name}; keep one").format(key=setting.preset_key, name=setting.name))
    value = values.pop(setting.preset_key)
    values[setting.name] = parse_size(value) if setting.is_size and isinstance(value, str) else value


def _label_of(table_name: str, table: dict[str, Any], data: dict[str, Any]) -> str:
    if table_name == "config":
        return str(table.get("label", data.get("title", "")))
    label = table.get("label")
    if not isinstance(label, str) or not label.strip():
        raise PresetError(_("[{table}] needs a label, e.g. label = \"pinned\"").format(table=table_name))
    return label


def _required_text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise PresetError(_("{key} is missing or empty").format(key=key))
    return " ".join(value.split())  # a text wrapped over several lines reads as one paragraph


def _optional_text(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is not None and (not isinstance(value, str) or not value.strip()):
        raise PresetError(_("{key} must be a non-empty string").format(key=key))
    return value
