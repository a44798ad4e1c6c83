"""Backends: the simulated GPU (`sim`) and the real one through CuPy (`cupy`)."""
