"""The settings' declarations: PipelineConfig's fields, the refusals and the controls' names agree with them."""

from __future__ import annotations

import dataclasses
import typing
import xml.etree.ElementTree as ET
from enum import StrEnum

import pytest

from overlapviz.core.config import PipelineConfig
from overlapviz.core.config.pipeline import REFUSALS, refusals_of
from overlapviz.core.config.setting import Control
from overlapviz.core.config.settings import BY_NAME, SETTINGS
from overlapviz.resources import ui_path


def test_every_field_of_the_config_is_declared_once_with_its_type_and_default() -> None:
    fields = dataclasses.fields(PipelineConfig)
    hints = typing.get_type_hints(PipelineConfig)
    assert sorted(f.name for f in fields) == sorted(BY_NAME) and len(SETTINGS) == len(BY_NAME)
    for field in fields:
        assert hints[field.name] is BY_NAME[field.name].kind, field.name
        assert field.default == BY_NAME[field.name].default, field.name


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: s.name)
def test_the_default_is_valid_and_inside_the_range(setting) -> None:
    assert setting.checked(setting.default) == setting.default
    if setting.kind is int:
        assert setting.low <= setting.default <= setting.high


def test_every_refusal_blames_a_declared_setting_and_each_is_found_by_name() -> None:
    assert {refusal.field for refusal in REFUSALS} <= set(BY_NAME)
    assert sum(len(refusals_of(name)) for name in BY_NAME) == len(REFUSALS)


def test_flags_and_preset_keys_are_unique() -> None:
    assert len({s.flag for s in SETTINGS}) == len(SETTINGS)
    assert len({s.preset_key for s in SETTINGS}) == len(SETTINGS)


def test_every_control_of_a_setting_is_in_the_form() -> None:
    names = {widget.get("name") for widget in ET.parse(ui_path("controls.ui")).iter("widget")}
    for setting in SETTINGS:
        if setting.control is Control.SLIDER:
            assert f"{setting.preset_key}_slider" in names, setting.name
        elif setting.control is Control.SWITCH:
            assert f"{setting.preset_key}_switch" in names, setting.name
        elif setting.control is Control.CHOICE:
            values = [v.value if isinstance(v, StrEnum) else v for v in setting.choices()]
            assert {f"{setting.preset_key}_{value}" for value in values} <= names, setting.name


def test_only_the_two_gpu_settings_name_a_backend_limit() -> None:
    assert {s.name for s in SETTINGS if s.backend_limits} == {"gpus"}
    assert all(set(s.backends) == {"sim", "cupy"} for s in SETTINGS)
