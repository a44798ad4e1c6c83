"""``overlapviz exercises`` lists the exercises; ``overlapviz exercise show|check`` shows and grades one.

``check`` exits 0 when every goal held, 1 when one did not (a setting outside the exercise's
limits is such a goal), and 2 for bad input: an unknown exercise, a settings file that cannot
be read or is not valid, an answer that is none of the choices (docs/exercises.md).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from overlapviz.backends import registry
from overlapviz.commands.errors import EXIT_FAILED, UsageError
from overlapviz.core.i18n import N_, _, pgettext
from overlapviz.core.i18n.text_width import display_width, ljust, wrap
from overlapviz.exercises import Exercise, ExerciseError, ExerciseKind, get_exercise, load_exercises
from overlapviz.exercises.grading import Grade, check_answer, check_settings, read_settings
from overlapviz.run_report import labelled

# Formatted (with nothing) as every translated text is, so its literal braces are doubled.
_CHECK_HELP = N_("""\
Grade an answer to an exercise: a challenge's settings (--settings, a preset-style TOML file
whose [config] table changes the exercise's setup), or a prediction's or a quiz's answer
(--answer, a choice's key or a number). A prediction is judged against what the run
measures on --backend/--device (default: the setup's, else auto), so a course may grade on
the model, on a calibrated profile (a profile name or a calibration file) or on its GPU.

Exit status: 0 passed, 1 not passed (settings outside the exercise's limits fail their
goal), 2 bad input (unknown exercise, unreadable or invalid file, an answer of the wrong kind).
--json prints {{"passed": bool, "exercise": NAME, "kind": KIND, "goals": [{{"goal",
"measured", "passed"}}], ...}}.
""")


def add_exercises(commands: Any) -> None:
    """Add ``overlapviz exercises`` and ``overlapviz exercise show|check``."""
    listing = commands.add_parser("exercises", help=_("list the exercises, one per line: name, kind, title"))
    listing.set_defaults(command=exercises_command)
    exercise = commands.add_parser("exercise", help=_("show an exercise, or grade an answer to it"))
    actions = exercise.add_subparsers(title=_("actions"), metavar="ACTION", required=True)
    show = actions.add_parser("show", help=_("print an exercise's question, choices and hints"))
    show.add_argument("name", metavar="NAME")
    show.set_defaults(command=show_command)
    check = actions.add_parser("check", help=_("grade an answer"), description=_(_CHECK_HELP).format(),
                               formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("name", metavar="NAME")
    answer = check.add_mutually_exclusive_group(required=True)
    answer.add_argument("--settings", type=Path, metavar="FILE.toml",
                        help=_("a challenge's answer: settings in [config]"))
    answer.add_argument("--answer", metavar="VALUE",
                        help=_("a prediction's or a quiz's answer: a choice's key, a number"))
    check.add_argument("--json", action="store_true", help=_("print one JSON object instead of a line per goal"))
    check.add_argument("--backend", choices=("auto", *registry.BACKEND_NAMES),
                       help=_("default: the setup's, else auto"))
    check.add_argument("--device", metavar="PROFILE", help=_("a simulated profile, a calibration file or a GPU"))
    check.set_defaults(command=check_command)


def exercises_command(args: argparse.Namespace) -> int:
    """Print one exercise per line: its name, its kind, its title (the columns padded by display width)."""
    found = _exercise_errors_as_usage(load_exercises)
    rows = [(name, kind_words(exercise.kind), exercise.title) for name, exercise in found.items()]
    widths = [max((display_width(row[column]) for row in rows), default=0) for column in (0, 1)]
    for name, kind, title in rows:
        print(f"{ljust(name, widths[0])}  {ljust(kind, widths[1])}  {title}")
    return 0


def kind_words(kind: ExerciseKind) -> str:
    """An exercise's kind as the listing names it, in the active language."""
    # Translators: an exercise's kind in `overlapviz exercises`: predict (then run), challenge, quiz
    words = {
        ExerciseKind.PREDICT: pgettext("exercise kind", "predict"),
        ExerciseKind.CHALLENGE: pgettext("exercise kind", "challenge"),
        ExerciseKind.QUIZ: pgettext("exercise kind", "quiz"),
    }
    return words[kind]


def show_command(args: argparse.Namespace) -> int:
    """Print the exercise's title, question, choices and hints."""
    exercise: Exercise = _exercise_errors_as_usage(lambda: get_exercise(args.name))
    heading = _("{name}: {title} ({kind})").format(
        name=exercise.name, title=exercise.title, kind=kind_words(exercise.kind)
    )
    lines = [heading, *wrap(exercise.question, 88)]
    lines += [f"  {choice.key:<14} {choice.text}" for choice in exercise.choices]
    lines += [labelled(_("goal"), "{goal}", goal=goal.describe()) for goal in exercise.goals]
    lines += [labelled(_("limit"), "{limit}", limit=limit.describe()) for limit in exercise.limits]
    lines += [labelled(_("hint"), "{hint}", hint=hint) for hint in exercise.hints]
    print("\n".join(lines))
    return 0


def check_command(args: argparse.Namespace) -> int:
    """Grade the answer; print the grade; exit 0 when it passed, else 1."""
    grade: Grade = _exercise_errors_as_usage(lambda: _grade(args))
    if args.json:
        print(json.dumps(grade.to_dict(), indent=2, allow_nan=False))
    else:
        print("\n".join(grade_lines(grade)))
    return 0 if grade.passed else EXIT_FAILED


def _grade(args: argparse.Namespace) -> Grade:
    exercise = get_exercise(args.name)
    if args.settings is not None:
        return check_settings(exercise, read_settings(args.settings, exercise), args.backend, args.device)
    return check_answer(exercise, args.answer, args.backend, args.device)


def grade_lines(grade: Grade) -> list[str]:
    """The grade as text: a line per goal, then passed or not."""
    lines = [
        _("{verdict}  {goal}   (measured: {measured})").format(
            verdict=ljust(_("ok") if goal.passed else _("FAIL"), 4), goal=goal.goal, measured=_shown(goal.measured)
        )
        for goal in grade.goals
    ]
    if grade.measured is not None and grade.measured.refused:
        lines.append(labelled(_("refused"), "{reason}", reason=grade.measured.refused))
    verdict = _("{exercise}: passed") if grade.passed else _("{exercise}: not passed")
    return [*lines, verdict.format(exercise=grade.exercise)]


def _shown(value: object) -> str:
    if value is None:
        return _("nothing")
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def _exercise_errors_as_usage(read: Any) -> Any:
    """Call `read`; a wrong exercise, settings file or answer is bad input (exit 2), said in one line."""
    try:
        return read()
    except ExerciseError as error:
        raise UsageError(str(error)) from None
