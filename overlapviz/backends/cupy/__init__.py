"""The real-GPU backend (CuPy). Nothing here imports CuPy, CUPTI or NVTX at import time.

`create_backend` is what `overlapviz.backends.registry` calls; CuPy is imported when a run,
a device probe or a bandwidth sweep needs it, so the model, the tests and the CLI work on a
machine with no GPU.
"""

from __future__ import annotations

from overlapviz.backends.cupy.backend import CupyBackend, create_backend

__all__ = ["CupyBackend", "create_backend"]
