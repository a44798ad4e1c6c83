"""A real lab server on the model, started as `overlapviz serve` in a child process, for the clients' tests."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from overlapviz.core.config import PipelineConfig
from overlapviz.lab.client import LabClient, LabError

ROOT = Path(__file__).resolve().parents[2]
START_S = 90.0  # a loaded machine starts Python, aiohttp and the model's worker slowly


@dataclass(frozen=True)
class LabServer:
    """What the server printed at start: its address and the credentials."""

    url: str
    join_code: str
    class_token: str
    instructor_token: str

    def client(self, credential: str | None = None, client_id: str = "test-client") -> LabClient:
        """A client of this server (the join code unless told otherwise)."""
        return LabClient(self.url, credential or self.join_code, client_id)


@contextmanager
def lab_server(tmp_path: Path) -> Iterator[LabServer]:
    """Start ``overlapviz serve --backend sim --port 0`` on this machine's loopback; stop it after."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "overlapviz", "serve", "--backend", "sim", "--port", "0", "--host", "127.0.0.1"]
    command += ["--devices", "h200", "--token-file", str(tmp_path / "class-token")]
    child = subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        yield _announced(child)
    finally:
        child.send_signal(signal.SIGTERM)
        try:
            child.wait(15)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        if child.stdout is not None:
            child.stdout.close()


def _announced(child: subprocess.Popen[str]) -> LabServer:
    """The server's ``name: value`` lines up to ``ready`` (read on a thread: a pipe's read cannot time out)."""
    said: dict[str, str] = {}
    ready = threading.Event()

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            if line.strip() == "ready":
                ready.set()
            name, _, value = line.partition(": ")
            said.setdefault(name.strip(), value.strip())

    threading.Thread(target=read, daemon=True).start()
    if not ready.wait(START_S):
        raise RuntimeError(f"the lab server did not start; it said: {said}")
    return LabServer(said["url"], said["join code"], said["class token"], said["instructor token"])


def slow_config(seed: int) -> dict[str, Any]:
    """Settings that keep the model's worker busy a while (each seed its own, so no answer is cached)."""
    return PipelineConfig(chunks=4096, size_bytes=(4 << 30) + seed * (1 << 20)).to_dict()


@contextmanager
def busy_queue(server: LabServer, jobs: int = 3) -> Iterator[None]:
    """The server's queue held by the instructor's slow runs (no limit of the class's share applies to them)."""
    client = server.client(server.instructor_token, "filler")
    threads = [threading.Thread(target=_quietly_run, args=(client, slow_config(k)), daemon=True) for k in range(jobs)]
    for thread in threads:
        thread.start()
    try:
        yield
    finally:
        for thread in threads:
            thread.join(120)


def _quietly_run(client: LabClient, config: dict[str, Any]) -> None:
    with contextlib.suppress(LabError):  # a filler's own fate is no concern of the test
        client.run(config, trace=False)
