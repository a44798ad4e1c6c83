"""Keeping Python's garbage collections from stopping the window.

A full collection walks every object Python tracks and holds the global lock while it does,
on whichever thread happened to allocate, and the GUI thread needs that lock for every event.
Two things made them long (measured on a 65,536-chunk run: 40-90 ms each, several per run):

- the window's own objects (Qt's wrappers, the modules, pyqtgraph's items), about 10^5 of
  them, which live as long as the app: `settle_heap` moves them out of the collector's sight
  once the window is up (`gc.freeze`);
- the objects a run builds while it models the pipeline, about 10^5 more, which form no
  cycles and are freed by their reference counts when the run returns: the collector waits
  while work runs off the GUI thread (`collections_paused`), and what a run leaves behind
  is collected as before once it is done.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_paused = 0  # blocks inside `collections_paused` now, on every thread
_resume = True  # whether the collector was on when the first of them began


def settle_heap() -> int:
    """Collect once, then leave every object alive now out of later collections; returns how many."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


@contextmanager
def collections_paused() -> Iterator[None]:
    """No automatic collection while the block runs; the collector is as it was once every such block is done."""
    global _paused, _resume
    with _lock:
        if _paused == 0:
            _resume = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _lock:
            _paused -= 1
            if _paused == 0 and _resume:
                gc.enable()
