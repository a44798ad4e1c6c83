"""Lessons: the lesson presets in the app, a panel with their words, stepping through them."""
