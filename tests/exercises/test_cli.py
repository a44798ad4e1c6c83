"""``overlapviz exercises`` and ``overlapviz exercise show|check``: output, --json and exit codes."""

import json

import pytest

from overlapviz.exercises import exercise_names, get_exercise
from tests.cli_runs import run_cli


def _settings(tmp_path, text, name="answer.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _grade(capsys, *argv):
    code, out, err = run_cli(capsys, "exercise", "check", *argv, "--backend", "sim", "--json")
    return code, json.loads(out) if out else None, err


def test_the_list_gives_one_exercise_per_line_name_first(capsys):
    code, out, _ = run_cli(capsys, "exercises")
    assert code == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == exercise_names()
    assert all(get_exercise(line.split()[0]).title in line for line in lines)


def test_show_prints_the_question_and_choices(capsys):
    code, out, _ = run_cli(capsys, "exercise", "show", "free-pinned-memory")
    assert code == 0
    assert "cudaMallocHost" in out and "cudaFreeHost(ptr)" in out


@pytest.mark.parametrize(("name", "side", "passed"), [
    ("pinned-overlap", "reference", True),
    ("pinned-overlap", "wrong", False),
    ("enough-chunks", "reference", True),
    ("legacy-stream", "wrong", False),
])  # fmt: skip
def test_a_challenges_known_answers_through_the_command_line(capsys, tmp_path, name, side, passed):
    config = getattr(get_exercise(name), side).to_dict()
    table = "\n".join(f"{key} = {json.dumps(value)}" for key, value in config.items())
    code, grade, _ = _grade(capsys, name, "--settings", _settings(tmp_path, f"[config]\n{table}\n"))
    assert (code, grade["passed"], grade["exercise"]) == (0 if passed else 1, passed, name)
    assert all(set(goal) == {"goal", "measured", "passed"} for goal in grade["goals"])


def test_a_learners_settings_change_only_what_they_name(capsys, tmp_path):
    path = _settings(tmp_path, '[config]\nmemory = "pinned"\n')
    code, grade, _ = _grade(capsys, "pinned-overlap", "--settings", path)
    assert code == 0 and grade["passed"]
    measured = {goal["goal"]: goal["measured"] for goal in grade["goals"]}
    assert measured["copy_hidden_pct >= 50"] >= 50


def test_settings_outside_the_limits_fail_their_goal_not_the_input(capsys, tmp_path):
    text = '[config]\nmemory = "pinned"\nchunks = 12\n'
    code, grade, err = _grade(capsys, "enough-chunks", "--settings", _settings(tmp_path, text))
    assert (code, grade["passed"], err) == (1, False, "")
    failed = [goal for goal in grade["goals"] if not goal["passed"]]
    assert [(goal["goal"], goal["measured"]) for goal in failed] == [("setting chunks <= 8", 12)]


def test_a_prediction_is_graded_on_the_measured_run(capsys):
    code, grade, _ = _grade(capsys, "overlap-which-first", "--answer", "pinned")
    assert (code, grade["passed"], grade["expected"]) == (0, True, "pinned")
    code, grade, _ = _grade(capsys, "overlap-which-first", "--answer", "same")
    assert (code, grade["passed"]) == (1, False)


def test_a_number_prediction_takes_a_tolerance(capsys):
    code, grade, _ = _grade(capsys, "pinned-bandwidth", "--answer", "50")
    assert code == 0 and grade["goals"][0]["measured"] == pytest.approx(55.1, abs=0.1)
    code, _, _ = _grade(capsys, "pinned-bandwidth", "--answer", "7")
    assert code == 1


def test_a_quiz_needs_no_run(capsys):
    code, grade, _ = _grade(capsys, "free-pinned-memory", "--answer", "cudaFreeHost")
    assert (code, grade["passed"], grade["kind"]) == (0, True, "quiz")
    assert "backend" not in grade
    code, grade, _ = _grade(capsys, "free-pinned-memory", "--answer", "free")
    assert (code, grade["passed"]) == (1, False)


def test_text_output_says_each_goal_and_the_verdict(capsys):
    code, out, _ = run_cli(capsys, "exercise", "check", "free-pinned-memory", "--answer", "delete")
    assert code == 1
    assert out.splitlines()[-1] == "free-pinned-memory: not passed"


def test_a_course_grades_on_another_profile(capsys):
    code, grade, _ = _grade(capsys, "one-stream", "--answer", "0", "--device", "tesla-c2050")
    assert code == 0 and grade["device"] == "tesla-c2050"


BAD_SETTINGS = {
    "not toml": "[config\n",
    "no config": 'title = "mine"\n',
    "unknown setting": "[config]\nchunkz = 4\n",
    "wrong value": "[config]\nchunks = 0\n",
    "unknown top key": "[config]\nchunks = 4\n[extra]\n",
}


@pytest.mark.parametrize("text", BAD_SETTINGS.values(), ids=BAD_SETTINGS)
def test_bad_settings_are_bad_input_in_one_line(capsys, tmp_path, text):
    path = _settings(tmp_path, text)
    code, out, err = run_cli(capsys, "exercise", "check", "pinned-overlap", "--settings", path, "--backend", "sim")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("overlapviz: error: ") and str(path) in err


@pytest.mark.parametrize("argv", [
    ("exercise", "check", "no-such-exercise", "--answer", "x"),
    ("exercise", "check", "../presets/default", "--answer", "x"),
    ("exercise", "check", "pinned-overlap", "--answer", "x"),
    ("exercise", "check", "free-pinned-memory", "--answer", "malloc"),
    ("exercise", "check", "one-stream", "--answer", "lots"),
    ("exercise", "check", "one-stream", "--answer", "nan"),
    ("exercise", "check", "pinned-overlap"),
    ("exercise", "check", "pinned-overlap", "--settings", "missing.toml"),
    ("exercise", "show", "no-such-exercise"),
])  # fmt: skip
def test_bad_input_exits_2_with_one_line(capsys, argv):
    code, out, err = run_cli(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("overlapviz: error: ")
