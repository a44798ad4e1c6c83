"""The Exercises panel: predict, run, check; challenges on the controls; quizzes; stepping through findings."""
