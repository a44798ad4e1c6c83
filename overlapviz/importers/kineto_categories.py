"""Which events of a PyTorch profiler (Kineto) trace become rows, and of what kind (see `kineto`)."""

from __future__ import annotations

import numpy as np

from overlapviz.importers.activity import ActivityKind
from overlapviz.importers.kineto_schema import Event

_CURRENT_ROW_KINDS = {
    "gpu_memcpy": ActivityKind.MEMCPY,
    "gpu_memset": ActivityKind.MEMSET,
    "kernel": ActivityKind.KERNEL,
    "cuda_runtime": ActivityKind.RUNTIME,
    "cuda_driver": ActivityKind.DRIVER,
    "user_annotation": ActivityKind.ANNOTATION,
    "gpu_user_annotation": ActivityKind.ANNOTATION,
    "cuda_sync": ActivityKind.SYNC,
}
# PyTorch 1.8 and 1.9 (Kineto before it renamed its categories) spelled them so; ``Operator`` was ``cpu_op``.
_OLD_NAMES = {"Memcpy": "gpu_memcpy", "Memset": "gpu_memset", "Kernel": "kernel", "Runtime": "cuda_runtime"}
ROW_KINDS = {**_CURRENT_ROW_KINDS, **{old: _CURRENT_ROW_KINDS[new] for old, new in _OLD_NAMES.items()}}
STEP_PREFIX = "ProfilerStep#"
STEP_CATEGORIES = frozenset({"cpu_op", "Operator"})
_DEVICE_CATEGORIES = frozenset({"gpu_memcpy", "gpu_memset", "kernel", "gpu_user_annotation", "cuda_sync", *_OLD_NAMES}
                               - {"Runtime"})  # fmt: skip
_SIZED_CATEGORIES = frozenset({"gpu_memcpy", "gpu_memset", "Memcpy", "Memset"})
# A number per row category (the last for ProfilerStep ranges), and what each number means.
CATEGORY_NUMBERS = {category: number for number, category in enumerate(ROW_KINDS)}
STEP_NUMBER = len(ROW_KINDS)
KIND_OF = np.array([*ROW_KINDS.values(), ActivityKind.ANNOTATION], dtype=np.int8)
ON_DEVICE_OF = np.array([category in _DEVICE_CATEGORIES for category in ROW_KINDS] + [False])
SIZED_OF = np.array([category in _SIZED_CATEGORIES for category in ROW_KINDS] + [False])
FLOW_CATEGORY = "ac2g"
# Categories only Kineto writes (``kernel`` alone is not one: other tools use it too).
KINETO_CATEGORIES = (frozenset(ROW_KINDS) - {"kernel", "Kernel"}) | STEP_CATEGORIES | {"python_function", "ac2g"}


def row_events(events: list[Event]) -> list[Event]:
    """The events that become rows, in file order.

    Telling a ProfilerStep range from the other ``cpu_op`` events costs less than looking for
    one in the whole file first.
    """
    return [
        event
        for event in events
        if event.ph == "X"
        and (event.cat in ROW_KINDS or (event.cat in STEP_CATEGORIES and event.name.startswith(STEP_PREFIX)))
    ]
