"""What held Python's lock off the GUI thread while the heartbeat benchmark ran (its ``--locks`` pass)."""

from __future__ import annotations

import bisect
import gc
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


class LongCalls:
    """What held Python's lock for `MIN_MS` or more off the GUI thread.

    Calls into C, garbage collections, and stretches with no Python event at all between two
    (objects freed in one cascade as a function returns): all hold the lock throughout. A
    collection runs on whichever thread allocated when the collector's thresholds were reached.
    """

    MIN_MS = 20.0
    END_SLACK_S = 0.005

    def __init__(self) -> None:
        self.found: list[tuple[float, float, str]] = []  # began, ended, what
        self._started: dict[tuple[int, int], float] = {}
        self._last: dict[int, tuple[float, str]] = {}  # per thread: its last event, and where
        self._collecting = 0.0

    def hook(self, frame: Any, event: str, arg: Any) -> None:
        """A `sys.setprofile` hook."""
        now, thread = time.perf_counter(), threading.get_ident()
        key = (thread, id(frame))
        where = f"{Path(frame.f_code.co_filename).name}:{frame.f_lineno} ({frame.f_code.co_name})"
        last = self._last.get(thread)
        if event == "c_call":
            self._started[key] = now
        elif event in ("c_return", "c_exception") and key in self._started:
            began = self._started.pop(key)
            if (now - began) * 1e3 >= self.MIN_MS:
                self.found.append((began, now, f"{getattr(arg, '__qualname__', arg)} in {where}"))
            last = None  # the silence was this call's
        if last is not None and (now - last[0]) * 1e3 >= self.MIN_MS:
            self.found.append((last[0], now, f"nothing in Python after {last[1]}"))
        self._last[thread] = (now, f"{event} {where}")

    def on_collection(self, phase: str, info: dict[str, Any]) -> None:
        """A `gc.callbacks` entry: note long collections off the GUI thread."""
        if phase == "start":
            self._collecting = time.perf_counter()
        elif threading.current_thread() is not threading.main_thread():
            began, ended = self._collecting, time.perf_counter()
            if (ended - began) * 1e3 >= self.MIN_MS:
                self.found.append((began, ended, f"garbage collection of generation {info['generation']}"))

    def install(self) -> Callable[..., Any]:
        """Hook the file thread's reading and encoding; returns a run function that hooks the run thread.

        A hook set once on a Qt thread would not last (each slot call gets a fresh Python
        thread state), so each piece of work sets it as it starts; a run's hook stays on
        while its result is prepared, in the same call.
        """
        from overlapviz._qt.files import file_actions
        from overlapviz.session import run_pipeline

        gc.callbacks.append(self.on_collection)
        file_actions.load_file = self._hooked(file_actions.load_file)  # type: ignore[attr-defined]
        file_actions.png_bytes = self._hooked(file_actions.png_bytes)  # type: ignore[attr-defined]
        return self._hooked(run_pipeline)

    def _hooked(self, work: Callable[..., Any]) -> Callable[..., Any]:
        def hooked(*args: Any) -> Any:
            sys.setprofile(self.hook)
            return work(*args)

        return hooked

    def take(self, ticks: list[float], top: int = 5) -> list[tuple[float, str]]:
        """The longest calls since the last take that held the lock throughout, longest first.

        A call held it throughout when the GUI thread's timer did not fire while it ran (a
        call that lets go of the lock, to wait or to encode, lets the timer in). The end is
        noted by a Python hook, where the waiting GUI thread may come in first: the last
        `END_SLACK_S` of a call are not looked at.
        """
        held = [
            (ended - began, what)
            for began, ended, what in self.found
            if not _tick_within(ticks, began, ended - self.END_SLACK_S)
        ]
        self.found = []
        return [(round(spent * 1e3, 1), what) for spent, what in sorted(held, reverse=True)[:top]]


def _tick_within(ticks: list[float], began: float, ended: float) -> bool:
    """Whether a tick of `ticks` (sorted) falls between `began` and `ended`."""
    i = bisect.bisect_right(ticks, began)
    return i < len(ticks) and ticks[i] < ended
