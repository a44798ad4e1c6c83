"""The device rectangles of every batch item of one picture, worked out together at its first paint.

After a new window (an open, a zoom, a pan) each batch item works out its rectangles again at
its next paint. A picture of a large trace has a dozen items and a few dozen layers, and for
each item the fixed cost of the ink bars' dozen array operations is most of that work. So the
first item to paint works out the ink bars of every item whose rectangles are stale at once,
on all their layers' columns laid end to end (`ink_bars.ink_layers_rects`), each item keeping
the same rectangles it would have worked out alone; the others then only draw.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence

from PySide6.QtGui import QTransform

from overlapviz._qt.timeline.ink_bars import ink_layers_rects
from overlapviz._qt.timeline.span_item import SpanBatchItem


class PictureRects:
    """Works out the rectangles of `items` together; each item reaches it through a weak reference."""

    def __init__(self, items: Sequence[SpanBatchItem]) -> None:
        self._items = list(items)
        for item in self._items:
            item.together = weakref.WeakMethod(self.work_out)

    def work_out(self, transform: QTransform) -> None:
        """The rectangles at `transform` of every item whose own are stale for it."""
        stale = [item for item in self._items if item.rects_stale(transform)]
        layers = [item.ink_layers() for item in stale]
        worked_out = iter(ink_layers_rects([layer for of_item in layers for layer in of_item], transform))
        for item, of_item in zip(stale, layers, strict=True):
            item.take_rects(transform, [next(worked_out) for _ in of_item])
