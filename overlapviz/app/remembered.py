"""The settings the app remembers between launches, read back with care.

The pipeline's config, the run target, live mode, the callouts, the comparison's axis, the
theme and the text size are written as the user changes them and read when the app starts. A value that can no longer be
used (a config from an older version that fails validation, a device that is not here any
more) is dropped from the store, the default is used instead and `restore` says what it
dropped: a stale settings file never stops the app from starting, nor does so in silence.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from overlapviz.app.model import AppModel, CompareAxis
from overlapviz.app.ports import SettingsStore
from overlapviz.app.run_targets import RunTarget
from overlapviz.core.config import ConfigError, PipelineConfig
from overlapviz.core.i18n import N_, _, pgettext

CONFIG_KEY = "controls/config"
TARGET_KEY = "controls/target"
LIVE_KEY = "controls/live"
EXPLANATIONS_KEY = "view/explanations"
AXIS_KEY = "compare/axis"
THEME_KEY = "theme"
TEXT_SCALE_KEY = "view/text_scale"
KEYS = (CONFIG_KEY, TARGET_KEY, LIVE_KEY, EXPLANATIONS_KEY, AXIS_KEY, THEME_KEY, TEXT_SCALE_KEY)
# The looks were always read leniently: a theme the window does not know falls back to its default
# there (`_qt.window_looks`), and a text size that is no number is passed over, without a word.
LENIENT = (THEME_KEY, TEXT_SCALE_KEY)
TRUE, FALSE = "true", "false"
WHAT = {  # each key's fact, as a note of what was dropped names it
    CONFIG_KEY: N_("the pipeline's settings"),
    TARGET_KEY: N_("the device"),
    LIVE_KEY: N_("live mode"),
    EXPLANATIONS_KEY: N_("the callouts switch"),
    AXIS_KEY: N_("the comparison's axis"),
    THEME_KEY: N_("the theme"),
    TEXT_SCALE_KEY: N_("the text size"),
}


def remembered_config(store: SettingsStore) -> PipelineConfig | None:
    """The config kept in `store`, if it is still a valid one."""
    text = store.get(CONFIG_KEY)
    if not text:
        return None
    try:
        data = json.loads(text)
        return PipelineConfig.from_dict(data) if isinstance(data, dict) else None
    except (ValueError, TypeError, ConfigError, RecursionError):  # nested too deeply: no config either
        return None


def remembered_target(store: SettingsStore, targets: list[RunTarget]) -> RunTarget | None:
    """The target kept in `store`, if it is among `targets`."""
    key = store.get(TARGET_KEY)
    return next((t for t in targets if _target_key(t) == key), None)


def remembered_flag(store: SettingsStore, key: str) -> bool | None:
    """A yes/no kept under `key` (None: none, or not a yes/no)."""
    return {TRUE: True, FALSE: False}.get(store.get(key) or "")


def remembered_axis(store: SettingsStore) -> CompareAxis | None:
    """The comparison's axis kept in `store`, if it is one."""
    try:
        return CompareAxis(store.get(AXIS_KEY) or "")
    except ValueError:
        return None


def remembered_text_scale(store: SettingsStore) -> float | None:
    """The text size kept in `store`, if it is a number."""
    try:
        return float(store.get(TEXT_SCALE_KEY) or "")
    except ValueError:
        return None


def restore(model: AppModel, store: SettingsStore, targets: list[RunTarget]) -> str | None:
    """Put what `store` remembers into `model` (what it lacks stays as it is).

    A value kept that can no longer be used is removed from `store`; the note returned says
    which (None: every value kept was used).
    """
    readers: list[tuple[str, Callable[[], Any], Callable[[Any], None]]] = [
        (CONFIG_KEY, lambda: remembered_config(store), model.set_config),
        (TARGET_KEY, lambda: remembered_target(store, targets), model.set_target),
        (LIVE_KEY, lambda: remembered_flag(store, LIVE_KEY), model.set_live),
        (EXPLANATIONS_KEY, lambda: remembered_flag(store, EXPLANATIONS_KEY), model.set_explanations),
        (AXIS_KEY, lambda: remembered_axis(store), model.set_axis),
        (THEME_KEY, lambda: store.get(THEME_KEY) or None, model.set_theme),
        (TEXT_SCALE_KEY, lambda: remembered_text_scale(store), model.set_text_scale),
    ]
    dropped = []
    for key, read, put in readers:
        value, kept = read(), store.get(key)
        if value is not None:
            put(value)
        elif kept and key not in LENIENT:
            dropped.append(f"{_(WHAT[key])} ({kept})" if key == TARGET_KEY else _(WHAT[key]))
            store.remove(key)
    return dropped_note(dropped)


def dropped_note(dropped: list[str]) -> str | None:
    """What the window says of the remembered settings that could not be used (None: none)."""
    if not dropped:
        return None
    return _("Remembered from last time but no longer usable, so the defaults are used: {settings}.").format(
        settings=pgettext("list", ", ").join(dropped)
    )


def remember(model: AppModel, store: SettingsStore) -> None:
    """Write each remembered fact of `model` to `store` whenever it changes."""
    model.config_changed.connect(lambda config: store.put(CONFIG_KEY, json.dumps(config.to_dict())))
    model.target_changed.connect(lambda target: _put_target(store, target))
    model.live_changed.connect(lambda live: store.put(LIVE_KEY, TRUE if live else FALSE))
    model.explanations_changed.connect(lambda on: store.put(EXPLANATIONS_KEY, TRUE if on else FALSE))
    model.axis_changed.connect(lambda axis: store.put(AXIS_KEY, axis.value))
    model.theme_changed.connect(lambda theme: store.put(THEME_KEY, theme))
    model.text_scale_changed.connect(lambda scale: store.put(TEXT_SCALE_KEY, str(scale)))


def forget(store: SettingsStore) -> None:
    """Remove every remembered setting from `store`."""
    for key in KEYS:
        store.remove(key)


def _put_target(store: SettingsStore, target: RunTarget | None) -> None:
    if target is None:
        store.remove(TARGET_KEY)
    else:
        store.put(TARGET_KEY, _target_key(target))


def _target_key(target: RunTarget) -> str:
    return f"{target.backend}/{target.device}"
