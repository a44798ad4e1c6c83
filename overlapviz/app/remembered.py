"""The settings the app remembers between launches, read back with care.

The pipeline's config, the run target, live mode, the callouts and the comparison's axis are
written as the user changes them and read when the app starts. A value that can no longer be
used (a config from an older version that fails validation, a device that is not here any
more) is dropped, and the default is used instead: a stale settings file never stops the app
from starting.
"""

from __future__ import annotations

import json

from overlapviz.app.model import AppModel, CompareAxis
from overlapviz.app.ports import SettingsStore
from overlapviz.app.run_targets import RunTarget
from overlapviz.core.config import ConfigError, PipelineConfig

CONFIG_KEY = "controls/config"
TARGET_KEY = "controls/target"
LIVE_KEY = "controls/live"
EXPLANATIONS_KEY = "view/explanations"
AXIS_KEY = "compare/axis"
KEYS = (CONFIG_KEY, TARGET_KEY, LIVE_KEY, EXPLANATIONS_KEY, AXIS_KEY)
TRUE, FALSE = "true", "false"


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


def restore(model: AppModel, store: SettingsStore, targets: list[RunTarget]) -> None:
    """Put what `store` remembers into `model` (what it lacks stays as it is)."""
    config = remembered_config(store)
    if config is not None:
        model.set_config(config)
    target = remembered_target(store, targets)
    if target is not None:
        model.set_target(target)
    for key, setter in ((LIVE_KEY, model.set_live), (EXPLANATIONS_KEY, model.set_explanations)):
        flag = remembered_flag(store, key)
        if flag is not None:
            setter(flag)
    axis = remembered_axis(store)
    if axis is not None:
        model.set_axis(axis)


def remember(model: AppModel, store: SettingsStore) -> None:
    """Write each remembered fact of `model` to `store` whenever it changes."""
    model.config_changed.connect(lambda config: store.put(CONFIG_KEY, json.dumps(config.to_dict())))
    model.target_changed.connect(lambda target: _put_target(store, target))
    model.live_changed.connect(lambda live: store.put(LIVE_KEY, TRUE if live else FALSE))
    model.explanations_changed.connect(lambda on: store.put(EXPLANATIONS_KEY, TRUE if on else FALSE))
    model.axis_changed.connect(lambda axis: store.put(AXIS_KEY, axis.value))


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
