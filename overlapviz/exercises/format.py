"""Exercise files: TOML beside the presets, in ``assets/exercises/``; a file's stem is its name.

docs/exercises.md describes the format. Every file has ``kind`` (predict, challenge or quiz),
``title``, ``question``, ``explanation``, optional ``hints``, ``highlight`` and ``lesson``, and
a ``[setup]`` (a quiz may leave it out). A predict or quiz exercise has ``[[choices]]`` and an
``answer`` (a predict exercise may instead ask for a number); a predict exercise says how its
answer is measured in ``[measure]``; a challenge has ``[[goals]]``, optional ``[[limits]]``,
and the settings of a right and a wrong answer in ``[reference.config]`` and ``[wrong.config]``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from overlapviz.core.config import PipelineConfig
from overlapviz.core.files.safe_read import read_input_bytes
from overlapviz.core.files.toml_text import TomlError, parse_toml
from overlapviz.core.i18n import content_text
from overlapviz.exercises import fields, parts
from overlapviz.exercises.fields import ExerciseError, UnknownExerciseError
from overlapviz.exercises.model import Exercise, ExerciseKind, Setup
from overlapviz.presets import PresetError, config_from_table, get_preset
from overlapviz.resources import asset_path

EXERCISE_SUFFIX = ".toml"
MAX_EXERCISE_BYTES = 1024**2  # an exercise is a few dozen lines: a larger file is not one
_COMMON_KEYS = {"kind", "title", "question", "explanation", "hints", "highlight", "lesson", "setup"}
_KIND_KEYS = {
    ExerciseKind.PREDICT: {"choices", "answer", "measure"},
    ExerciseKind.QUIZ: {"choices", "answer"},
    ExerciseKind.CHALLENGE: {"goals", "limits", "reference", "wrong"},
}


def exercises_folder() -> Path:
    """The folder the shipped exercises live in."""
    return asset_path("exercises")


def exercise_names(folder: Path | None = None) -> list[str]:
    """The names of the exercises in `folder` (default: the shipped ones), sorted."""
    folder = exercises_folder() if folder is None else folder
    return sorted(path.stem for path in folder.glob(f"*{EXERCISE_SUFFIX}"))


def load_exercises(folder: Path | None = None) -> dict[str, Exercise]:
    """Load every exercise in `folder` (default: the shipped ones), by name, sorted by name.

    Raises
    ------
    ExerciseError
        A file is not a valid exercise; the message names the file and the key.
    """
    folder = exercises_folder() if folder is None else folder
    return {name: load_exercise(folder / f"{name}{EXERCISE_SUFFIX}") for name in exercise_names(folder)}


def get_exercise(name: str, folder: Path | None = None) -> Exercise:
    """Load the exercise called `name`.

    Raises
    ------
    UnknownExerciseError
        No such exercise; the message lists the names there are.
    ExerciseError
        Its file is not a valid exercise.
    """
    folder = exercises_folder() if folder is None else folder
    path = folder / f"{name}{EXERCISE_SUFFIX}"
    if "/" in name or "\\" in name or name not in exercise_names(folder):
        known = ", ".join(exercise_names(folder)) or "none"
        raise UnknownExerciseError(f"unknown exercise {name!r}; the exercises are: {known}")
    return load_exercise(path)


def load_exercise(path: Path) -> Exercise:
    """Read and check one exercise file.

    Raises
    ------
    ExerciseError
        The file cannot be read or is not a valid exercise; the message names the file and the key.
    """
    try:
        return exercise_from(path.stem, read_toml(path, "exercise"))
    except ExerciseError as error:
        raise ExerciseError(f"{path}: {error}") from None


def read_toml(path: Path, what: str) -> dict[str, Any]:
    """The TOML data of a small file (UTF-8, with or without a byte order mark); one-line errors without the path."""
    try:
        raw = read_input_bytes(path, what=what, max_bytes=MAX_EXERCISE_BYTES)
        return parse_toml(raw.decode("utf-8-sig"))
    except OSError as error:
        raise ExerciseError(f"cannot be read ({error.strerror or error})") from None
    except (TomlError, UnicodeDecodeError) as error:
        raise ExerciseError(f"not valid TOML ({' '.join(str(error).split())})") from None


def exercise_from(name: str, data: dict[str, Any]) -> Exercise:
    """The exercise `data` (a parsed file) describes."""
    kind = ExerciseKind(fields.one_of(fields.text(data, "kind"), tuple(ExerciseKind), "kind"))
    fields.check_keys(data, _COMMON_KEYS | _KIND_KEYS[kind], "")
    setup = parts.setup_from(fields.table(data, "setup"))
    if setup is None and kind is not ExerciseKind.QUIZ:
        raise ExerciseError("setup: missing; give [setup] with preset = NAME or trace = FILE")
    # The words in the active language, chosen at start: the files are their English source.
    common: dict[str, Any] = {
        "name": name,
        "kind": kind,
        "title": content_text(fields.text(data, "title")),
        "question": content_text(fields.text(data, "question")),
        "explanation": content_text(fields.text(data, "explanation")),
        "setup": setup,
        "hints": tuple(map(content_text, fields.texts(data, "hints"))),
        "highlight": parts.highlights_from(data),
        "lesson": _lesson(data),
    }
    if kind is ExerciseKind.CHALLENGE:
        return _challenge(common, data, setup)
    choices = parts.choices_from(data)
    if kind is ExerciseKind.QUIZ:
        return Exercise(**common, choices=choices, answer=parts.answer_key(data, choices))
    return Exercise(**common, choices=choices, prediction=parts.prediction_from(data, choices))


def _lesson(data: dict[str, Any]) -> str | None:
    name = fields.optional_text(data, "lesson")
    if name is not None:
        try:
            get_preset(name)
        except PresetError as error:
            raise ExerciseError(f"lesson: {error}") from None
    return name


def _challenge(common: dict[str, Any], data: dict[str, Any], setup: Setup | None) -> Exercise:
    if setup is None or len(setup.configs) != 1:
        raise ExerciseError('setup: a challenge starts from one pipeline: a preset with [config], or side = "a"/"b"')
    goals = parts.goals_from(data)
    if not goals:
        raise ExerciseError("goals: give at least one [[goals]]")
    base = setup.configs[0]
    return Exercise(
        **common,
        goals=goals,
        limits=parts.limits_from(data),
        reference=_answer_config(data, "reference", base),
        wrong=_answer_config(data, "wrong", base),
    )


def _answer_config(data: dict[str, Any], key: str, base: PipelineConfig) -> PipelineConfig:
    """[reference.config] or [wrong.config]: the settings of a known answer, over the setup's."""
    outer = fields.table(data, key) or {}
    fields.check_keys(outer, {"config"}, f"{key}.")
    table = fields.table(outer, "config", f"{key}.")
    if table is None:
        raise ExerciseError(f"{key}.config: missing; give the settings of a known answer in [{key}.config]")
    return settings_config(table, f"{key}.config", base)


def settings_config(table: dict[str, Any], table_name: str, base: PipelineConfig) -> PipelineConfig:
    """A preset-style [config] table's settings over `base` (the exercise's setup)."""
    try:
        return config_from_table(table, table_name, base)
    except PresetError as error:
        raise ExerciseError(str(error)) from None
