"""A run on the lab server while the user watches: its place in the queue as it waits, and a way out.

The run's request waits on a thread of its own while this one asks the server every
`POLL_S` where the user's oldest job stands, and stops waiting (leaving the request to end
by itself) as soon as the run is cancelled: a newer run, or the window closing, never waits
on the class's queue.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from overlapviz.core.cancel import CancelToken
from overlapviz.lab.client import LabClient, LabError
from overlapviz.lab.client_status import queue_position

POLL_S = 0.5  # how often the queue's state is asked while a run waits


def run_waiting(
    client: LabClient, config_table: Mapping[str, Any], cancel: CancelToken, on_position: Callable[[int], None]
) -> dict[str, Any]:
    """`client.run(config_table)`, telling `on_position` the user's place in the queue (0: not waiting).

    Raises
    ------
    LabError
        As `LabClient.run`.
    RunCancelled
        `cancel` was set before the answer came.
    """
    outcome: dict[str, Any] = {}

    def post() -> None:
        try:
            outcome["answer"] = client.run(config_table, trace=True)
        except LabError as error:
            outcome["error"] = error

    request = threading.Thread(target=post, name="lab-run", daemon=True)
    request.start()
    try:
        while request.is_alive():
            request.join(POLL_S)
            cancel.check()
            if request.is_alive():
                on_position(queue_position(client))
    finally:
        on_position(0)
    if "error" in outcome:
        raise outcome["error"]
    answer: dict[str, Any] = outcome["answer"]
    return answer
