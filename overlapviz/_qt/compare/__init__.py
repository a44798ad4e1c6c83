"""Comparing two runs, A and B: on one time axis, with the differences in numbers."""
