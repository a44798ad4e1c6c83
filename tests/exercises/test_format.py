"""The exercise file format: what loads, and the one-line error naming the file and key for what does not."""

import pytest

from overlapviz.core.config import PipelineConfig
from overlapviz.exercises import ExerciseError, ExerciseKind, UnknownExerciseError, get_exercise, load_exercises
from overlapviz.exercises.figures import figure_names
from overlapviz.run_report import json_run
from overlapviz.session import run_pipeline

QUIZ = """
kind = "quiz"
title = "t"
question = "q"
explanation = "e"
answer = "b"
[[choices]]
key = "a"
text = "A"
[[choices]]
key = "b"
text = "B"
"""

CHALLENGE = """
kind = "challenge"
title = "t"
question = "q"
explanation = "e"
highlight = ["h2d", "finding:copy-bound", "span:cudaFreeHost"]
[setup]
preset = "default"
config = { size = "8MiB" }
[[goals]]
figure = "copy_hidden_pct"
compare = ">="
value = 50
[[limits]]
setting = "size"
compare = "=="
value = "8MiB"
[reference.config]
streams = 4
[wrong.config]
streams = 1
"""


def _load(tmp_path, text, name="mine"):
    (tmp_path / f"{name}.toml").write_text(text, encoding="utf-8")
    return load_exercises(tmp_path)[name]


def test_a_quiz_needs_no_setup(tmp_path):
    exercise = _load(tmp_path, QUIZ)
    assert (exercise.kind, exercise.answer, exercise.setup, exercise.runs) == (ExerciseKind.QUIZ, "b", None, False)


def test_a_challenge_starts_from_its_setup_with_its_changes(tmp_path):
    exercise = _load(tmp_path, CHALLENGE)
    assert exercise.setup.configs[0].size_bytes == 8 * 1024**2
    assert (exercise.reference.size_bytes, exercise.reference.streams, exercise.wrong.streams) == (8 * 1024**2, 4, 1)
    assert exercise.limits[0].value == 8 * 1024**2 and exercise.limits[0].describe() == "size == 8MiB"
    assert exercise.highlight == ("h2d", "finding:copy-bound", "span:cudaFreeHost")


def test_the_figures_are_those_run_json_prints():
    names = figure_names()
    assert {"makespan_ms", "copy_hidden_pct", "efficiency_pct", "busy_ms.kernel", "bandwidth_gbps.h2d"} <= set(names)
    assert "wall_s" not in names and not any(name.startswith("config.") for name in names)
    config = PipelineConfig(size_bytes=4 * 1024**2, chunks=4)
    report = json_run(config, run_pipeline(config, "sim"))
    assert all(name.split(".")[0] in report for name in names)


BROKEN = {
    "kind": (CHALLENGE.replace('kind = "challenge"', 'kind = "essay"'), "kind"),
    "unknown key": (CHALLENGE + 'colour = "red"\n', "colour"),
    "missing title": (CHALLENGE.replace('title = "t"', ""), "title"),
    "figure": (CHALLENGE.replace('figure = "copy_hidden_pct"', 'figure = "copy_hiden_pct"'), "goals[0].figure"),
    "compare": (CHALLENGE.replace('compare = ">="', 'compare = "=>"'), "goals[0].compare"),
    "preset": (CHALLENGE.replace('preset = "default"', 'preset = "nope"'), "setup.preset"),
    "setup setting": (CHALLENGE.replace('size = "8MiB" }', 'size = "8MiB", chunkz = 2 }'), "setup.config"),
    "reference": (CHALLENGE.replace("streams = 4", "streams = 0"), "reference.config"),
    "no wrong": (CHALLENGE.replace("[wrong.config]\nstreams = 1\n", ""), "wrong.config"),
    "limit setting": (CHALLENGE.replace('setting = "size"', 'setting = "colour"'), "limits[0].setting"),
    "highlight": (CHALLENGE.replace('"h2d", ', '"h3d", '), "highlight"),
    "finding": (CHALLENGE.replace("finding:copy-bound", "finding:slow"), "highlight"),
    "answer": (QUIZ.replace('answer = "b"', 'answer = "c"'), "answer"),
    "one choice": (QUIZ.split("[[choices]]\nkey = \"b\"")[0].replace('answer = "b"', 'answer = "a"'), "choices"),
    "same key": (QUIZ.replace('key = "b"', 'key = "a"'), "choices"),
    "not toml": ("kind = ", "not valid TOML"),
    "trace": (CHALLENGE.replace('preset = "default"', 'trace = "../presets/default.toml"'), "setup.trace"),
    "no setup": (CHALLENGE.split("[setup]")[0] + '[[goals]]\nfigure = "wall_ms"\ncompare = "<"\nvalue = 1\n', "setup"),
}


@pytest.mark.parametrize(("text", "key"), BROKEN.values(), ids=BROKEN)
def test_a_broken_file_says_which_file_and_key_in_one_line(tmp_path, text, key):
    with pytest.raises(ExerciseError) as raised:
        _load(tmp_path, text)
    message = str(raised.value)
    assert message.startswith(str(tmp_path / "mine.toml") + ": ")
    assert key in message and "\n" not in message


PREDICT = """
kind = "predict"
title = "t"
question = "q"
explanation = "e"
answer = 1.0
[setup]
preset = "default"
[measure]
figure = "makespan_ms"
tolerance_pct = 10
"""


@pytest.mark.parametrize(("change", "key"), [
    (("tolerance_pct = 10", ""), "tolerance"),
    (("tolerance_pct = 10", "tolerance_pct = 10\ntolerance = 1"), "tolerance"),
    (("answer = 1.0", 'answer = "fast"'), "answer"),
    (('figure = "makespan_ms"', 'figure = "busy_ms"'), "measure.figure"),
    (("tolerance_pct = 10", 'tolerance_pct = 10\npick = "lowest"'), "measure.pick"),
])  # fmt: skip
def test_a_broken_number_prediction(tmp_path, change, key):
    with pytest.raises(ExerciseError, match=key):
        _load(tmp_path, PREDICT.replace(*change))


def test_an_unknown_name_lists_the_exercises():
    with pytest.raises(UnknownExerciseError, match="pinned-overlap"):
        get_exercise("no-such-exercise")
