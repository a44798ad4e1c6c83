"""The lab server of the tests (`tests.lab.lab_server`, the real `overlapviz serve` on the model) as clients see it."""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from overlapviz.core.config import PipelineConfig
from overlapviz.lab.client import LabClient, LabError
from tests.lab.lab_server import LabServer

_seeds = itertools.count()  # the session's server caches answers: every slow run must be new to it


@dataclass(frozen=True)
class LabAccess:
    """What the server printed at start that a client needs: its address and the credentials."""

    url: str
    join_code: str
    class_token: str
    instructor_token: str

    def client(self, credential: str | None = None, client_id: str = "test-client") -> LabClient:
        """A client of this server (the join code unless told otherwise)."""
        return LabClient(self.url, credential or self.join_code, client_id)


def access(server: LabServer) -> LabAccess:
    """The address and credentials `server` printed."""
    said = server.printed
    return LabAccess(said["url"], said["join code"], said["class token"], said["instructor token"])


def slow_config() -> dict[str, Any]:
    """Settings that keep the model's worker busy a while, never asked for before (so no answer is cached)."""
    size = (16 << 30) + next(_seeds) * (1 << 20)  # about a second on the model, pageable so that nothing is pinned
    return PipelineConfig(chunks=16384, size_bytes=size, memory="pageable").to_dict()


@contextmanager
def busy_queue(server: LabAccess, jobs: int = 3) -> Iterator[None]:
    """The server's queue held by the instructor's slow runs (no limit of the class's share applies to them)."""
    client = server.client(server.instructor_token, "filler")
    threads = [threading.Thread(target=_quietly_run, args=(client, slow_config()), daemon=True) for _ in range(jobs)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 30
    while client.status()["queued"] < 1 and time.monotonic() < deadline:  # the fillers are ahead of the test's run
        time.sleep(0.05)
    try:
        yield
    finally:
        for thread in threads:
            thread.join(120)


def _quietly_run(client: LabClient, config: dict[str, Any]) -> None:
    with contextlib.suppress(LabError):  # a filler's own fate is no concern of the test
        client.run(config, trace=False)
