"""Exercises: predict what a run shows, reach goals on a measured run, answer a quiz.

The files are TOML in ``assets/exercises/`` (docs/exercises.md); `load_exercises` reads them
into `Exercise` values, and `overlapviz.exercises.grading` checks a learner's answer. Qt-free:
the command line and the app's panel both read this package.
"""

from overlapviz.exercises.fields import ExerciseError, UnknownExerciseError
from overlapviz.exercises.format import exercise_names, exercises_folder, get_exercise, load_exercise, load_exercises
from overlapviz.exercises.model import (
    Choice,
    Exercise,
    ExerciseKind,
    Goal,
    Limit,
    Pick,
    Prediction,
    Setup,
)

__all__ = [
    "Choice",
    "Exercise",
    "ExerciseError",
    "ExerciseKind",
    "Goal",
    "Limit",
    "Pick",
    "Prediction",
    "Setup",
    "UnknownExerciseError",
    "exercise_names",
    "exercises_folder",
    "get_exercise",
    "load_exercise",
    "load_exercises",
]
