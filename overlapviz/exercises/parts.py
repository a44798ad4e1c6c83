"""The parts of an exercise file: its setup, choices, prediction, goals, limits and highlights.

Each function reads one part of the TOML data and raises `ExerciseError` naming the key that
is wrong; `overlapviz.exercises.format` puts the file's name in front.
"""

from __future__ import annotations

from typing import Any

from overlapviz.core.config import parse_size
from overlapviz.core.config.settings import SETTINGS
from overlapviz.core.findings.registry import RULES
from overlapviz.core.i18n import content_text
from overlapviz.core.trace.spans import OpKind
from overlapviz.exercises import fields
from overlapviz.exercises.fields import ExerciseError
from overlapviz.exercises.figures import figure_names, table_figure_names
from overlapviz.exercises.model import COMPARISONS, OUTCOME_CHOICES, Choice, Goal, Limit, Pick, Prediction, Setup
from overlapviz.presets import Preset, PresetError, config_from_table, get_preset
from overlapviz.resources import asset_path

FINDING_PREFIX = "finding:"  # a highlight naming a finding code: "finding:host-blocked-pageable"
SPAN_PREFIX = "span:"  # a highlight naming spans by their name: "span:cudaFreeHost"
SETTING_KEYS = {setting.preset_key: setting for setting in SETTINGS}
_SETUP_KEYS = {"preset", "trace", "side", "config"}
_CHOICE_KEYS = {"key", "text", "side"}
_MEASURE_KEYS = {"figure", "pick", "side", "tolerance", "tolerance_pct"}
_GOAL_KEYS = {"figure", "compare", "value"}
_LIMIT_KEYS = {"setting", "compare", "value"}
_SIDES = ("a", "b")


def traces_folder() -> str:
    """The folder of the shipped traces a setup may open."""
    return str(asset_path("traces"))


def setup_from(table: dict[str, Any] | None) -> Setup | None:
    """The [setup] table: a preset (its settings changed by [setup.config]) or a shipped trace."""
    if table is None:
        return None
    fields.check_keys(table, _SETUP_KEYS, "setup.")
    preset_name = fields.optional_text(table, "preset", "setup.")
    trace = fields.optional_text(table, "trace", "setup.")
    if (preset_name is None) == (trace is None):
        raise ExerciseError("setup: give either preset = NAME or trace = FILE")
    if trace is not None:
        if "/" in trace or "\\" in trace or not asset_path("traces", trace).is_file():
            raise ExerciseError(f"setup.trace: {trace!r} is not a file in {traces_folder()}")
        return Setup(trace=trace)
    return _preset_setup(_preset_named(preset_name or ""), table)


def _preset_named(name: str) -> Preset:
    try:
        return get_preset(name)
    except PresetError as error:
        raise ExerciseError(f"setup.preset: {error}") from None


def _preset_setup(preset: Preset, table: dict[str, Any]) -> Setup:
    side = fields.optional_text(table, "side", "setup.")
    changes = fields.table(table, "config", "setup.") or {}
    configs, labels = preset.configs, preset.labels
    if side is not None:
        fields.one_of(side, _SIDES[: len(configs)], "setup.side")
        index = _SIDES.index(side)
        configs, labels = configs[index : index + 1], labels[index : index + 1]
    try:
        changed = tuple(config_from_table(changes, "setup.config", base) for base in configs)
    except PresetError as error:
        raise ExerciseError(str(error)) from None
    return Setup(preset=preset.name, configs=changed, labels=labels, device=preset.device, backend=preset.backend)


def choices_from(data: dict[str, Any]) -> tuple[Choice, ...]:
    """The [[choices]] array: each a key, the words shown and, for a prediction across sides, a side."""
    found = []
    for index, table in enumerate(fields.tables(data, "choices")):
        where = f"choices[{index}]."
        fields.check_keys(table, _CHOICE_KEYS, where)
        side = fields.optional_text(table, "side", where)
        if side is not None:
            fields.one_of(side, _SIDES, f"{where}side")
        shown = content_text(fields.text(table, "text", where))  # in the active language, keyed by the English
        found.append(Choice(fields.text(table, "key", where), shown, side))
    keys = [choice.key for choice in found]
    if len(set(keys)) != len(keys):
        raise ExerciseError(f"choices: two choices have the key {_first_repeat(keys)!r}")
    return tuple(found)


def _first_repeat(keys: list[str]) -> str:
    return next(key for index, key in enumerate(keys) if key in keys[:index])


def answer_key(data: dict[str, Any], choices: tuple[Choice, ...]) -> str:
    """The top-level ``answer`` of a choice question: one of the choices' keys."""
    if len(choices) < 2:
        raise ExerciseError("choices: give at least two [[choices]]")
    answer = fields.text(data, "answer")
    return fields.one_of(answer, tuple(choice.key for choice in choices), "answer")


def prediction_from(data: dict[str, Any], choices: tuple[Choice, ...]) -> Prediction:
    """The [measure] table with the top-level ``answer``: how a predict exercise's answer is measured."""
    measure = fields.table(data, "measure") or {}
    fields.check_keys(measure, _MEASURE_KEYS, "measure.")
    side = fields.optional_text(measure, "side", "measure.") or "a"
    fields.one_of(side, _SIDES, "measure.side")
    if not choices:
        return _number_prediction(data, measure, side)
    pick = Pick(fields.one_of(fields.text(measure, "pick", "measure."), tuple(Pick), "measure.pick"))
    figure = _pick_figure(measure, pick, choices)
    return Prediction(figure=figure, answer=answer_key(data, choices), pick=pick, side=side)


def _number_prediction(data: dict[str, Any], measure: dict[str, Any], side: str) -> Prediction:
    figure = figure_name(fields.text(measure, "figure", "measure."), "measure.figure")
    tolerance = fields.optional_number(measure, "tolerance", "measure.")
    tolerance_pct = fields.optional_number(measure, "tolerance_pct", "measure.")
    if (tolerance is None) == (tolerance_pct is None):
        raise ExerciseError("measure: give one of tolerance (in the figure's unit) or tolerance_pct")
    if "pick" in measure:
        raise ExerciseError("measure.pick: a number prediction picks nothing; give [[choices]] to pick among")
    answer = fields.number(data, "answer")
    return Prediction(figure, answer, side=side, tolerance=tolerance, tolerance_pct=tolerance_pct)


def _pick_figure(measure: dict[str, Any], pick: Pick, choices: tuple[Choice, ...]) -> str | None:
    keys = tuple(choice.key for choice in choices)
    if pick is Pick.FINDING:
        for key in keys:
            finding_code(key, "choices.key")
        return None
    if pick is Pick.OUTCOME:
        if sorted(keys) != sorted(OUTCOME_CHOICES):
            raise ExerciseError(f"choices: an outcome prediction's choices are {' and '.join(OUTCOME_CHOICES)}")
        return None
    name = fields.text(measure, "figure", "measure.")
    if any(choice.side for choice in choices):
        return figure_name(name, "measure.figure")
    return fields.one_of(name, table_figure_names(), "measure.figure (choices without sides pick among its keys)")


def figure_name(name: str, where: str) -> str:
    """`name` if `overlapviz run --json` prints such a figure, else an error listing them."""
    return fields.one_of(name, figure_names(), where)


def finding_code(code: str, where: str) -> str:
    """`code` if a finding rule has it, else an error listing them."""
    return fields.one_of(code, tuple(rule.code for rule in RULES), where)


def goals_from(data: dict[str, Any]) -> tuple[Goal, ...]:
    """The [[goals]] array: a figure, a comparison and a value each."""
    found = []
    for index, table in enumerate(fields.tables(data, "goals")):
        where = f"goals[{index}]."
        fields.check_keys(table, _GOAL_KEYS, where)
        figure = figure_name(fields.text(table, "figure", where), f"{where}figure")
        compare = fields.one_of(fields.text(table, "compare", where), COMPARISONS, f"{where}compare")
        found.append(Goal(figure, compare, fields.number(table, "value", where)))
    return tuple(found)


def limits_from(data: dict[str, Any]) -> tuple[Limit, ...]:
    """The [[limits]] array: bounds on the learner's settings."""
    found = []
    for index, table in enumerate(fields.tables(data, "limits")):
        where = f"limits[{index}]."
        fields.check_keys(table, _LIMIT_KEYS, where)
        setting = fields.one_of(fields.text(table, "setting", where), tuple(SETTING_KEYS), f"{where}setting")
        compare = fields.one_of(fields.text(table, "compare", where), COMPARISONS, f"{where}compare")
        value = table.get("value")
        found.append(Limit(setting, compare, _limit_value(value, setting, compare, where), str(value)))
    return tuple(found)


def _limit_value(value: object, setting: str, compare: str, where: str) -> int | str:
    if SETTING_KEYS[setting].is_size and isinstance(value, str):
        try:
            return parse_size(value)
        except ValueError as error:
            raise ExerciseError(f"{where}value: {error}") from None
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int) or (isinstance(value, str) and value and compare == "=="):
        return value
    raise ExerciseError(f"{where}value: give a whole number, or a word with compare = \"==\", not {value!r}")


def highlights_from(data: dict[str, Any]) -> tuple[str, ...]:
    """The ``highlight`` list: span kinds (``h2d``), ``finding:CODE`` and ``span:NAME``."""
    found = fields.texts(data, "highlight")
    kinds = tuple(kind.label for kind in OpKind)
    for item in found:
        if item.startswith(FINDING_PREFIX):
            finding_code(item.removeprefix(FINDING_PREFIX), "highlight")
        elif not item.startswith(SPAN_PREFIX) or item == SPAN_PREFIX:
            fields.one_of(item, kinds, "highlight (or finding:CODE, span:NAME)")
    return found
