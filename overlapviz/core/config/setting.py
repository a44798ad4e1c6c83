"""What is known about one pipeline setting, written once (see `settings.SETTINGS`).

The command line's flags (`cli_flags`), the checks of `PipelineConfig`, the app's controls,
the readers of presets and session files and the table in docs/presets.md are all read from
these declarations, so a setting's range, default or help has one place to change.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

from overlapviz.core.config.values import ConfigError, check_int, format_size
from overlapviz.core.i18n import _, pgettext

T = TypeVar("T", covariant=True)
BACKENDS = ("sim", "cupy")  # the backends' names, as `backends.registry` knows them


class Control(StrEnum):
    """How the app's controls panel edits a setting."""

    SLIDER = "slider"  # a StepSlider called <key>_slider
    CHOICE = "choice"  # a row of exclusive buttons called <key>_<value>
    SWITCH = "switch"  # a toggle switch called <key>_switch
    NONE = "none"  # not in the panel: the command line and presets only


@dataclass(frozen=True, slots=True)
class Setting(Generic[T]):
    """One field of `PipelineConfig`: its type, range, default and how each front end shows it.

    `help` is the command line's text for the flag, marked for translation (`N_`); ``{default}``
    in it becomes the default as the command line writes it. `doc` is the text of
    docs/presets.md's table (English).
    """

    name: str
    kind: type  # int, bool or a StrEnum
    default: T
    flag: str  # the command-line flag, without its dashes
    help: str
    doc: str
    control: Control = Control.NONE
    low: int = 0  # the range of a whole number
    high: int = 0
    unit: str = ""  # "bytes": written as a size (256MiB), and shown in binary units
    key: str = ""  # the key presets and the controls' names use; empty: the name
    only_with_several_gpus: bool = False  # left out of files at its one-GPU default
    backends: tuple[str, ...] = BACKENDS
    backend_limits: tuple[tuple[str, str], ...] = ()  # (backend, what it cannot do with this setting)

    @property
    def preset_key(self) -> str:
        """The key a preset's table gives this setting under."""
        return self.key or self.name

    @property
    def is_size(self) -> bool:
        """Whether the value is a byte count, written as ``256MiB`` or a number."""
        return self.unit == "bytes"

    def show(self, value: int) -> str:
        """`value` as the setting's messages write it."""
        return format_size(value) if self.is_size else str(value)

    def default_text(self) -> str:
        """The default as the command line's help writes it: on/off, a choice's name, a number."""
        if isinstance(self.default, bool):
            # Translators: a switch's default in the command line's help, "(default on)"
            return pgettext("switch", "on") if self.default else pgettext("switch", "off")
        return str(self.default.value if isinstance(self.default, StrEnum) else self.default)

    def choices(self) -> tuple[object, ...]:
        """The values a choice offers: every member of its enum, or every whole number in range."""
        if issubclass(self.kind, StrEnum):
            return tuple(self.kind)
        return tuple(range(self.low, self.high + 1))

    def checked(self, value: object) -> object:
        """`value` as the field holds it (a choice's name made its enum member), or `ConfigError`."""
        if issubclass(self.kind, StrEnum):
            return _coerce_enum(self.name, self.kind, value)
        if self.kind is bool:
            if not isinstance(value, bool):
                raise ConfigError(self.name, _("must be true or false"))
            return value
        check_int(self.name, value, self.low, self.high, self.show)
        return value


def _coerce_enum(name: str, enum: type[StrEnum], value: object) -> StrEnum:
    try:
        return enum(str(value)) if not isinstance(value, enum) else value
    except ValueError:
        allowed = ", ".join(member.value for member in enum)
        raise ConfigError(
            name, _("{value} is not one of: {allowed}").format(value=repr(value), allowed=allowed)
        ) from None
