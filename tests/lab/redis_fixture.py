"""A real Redis, real ``overlapviz worker`` processes and a real ``overlapviz serve --queue`` front.

`RedisServer.start` runs ``redis-server`` on a free port of the loopback, with nothing saved
to disk, in a temporary folder. `QueueWorker.start` runs one device's worker on the model.
`QueueLab` is the three together, as several GPU hosts would run them (here on one machine).
Without redis-server the tests that need it are skipped, saying why; with
``OVERLAPVIZ_REQUIRE_REDIS`` set (CI) they fail instead.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

import pytest

from tests.lab.lab_server import ROOT, START_LIMIT_S, LabServer, read_until_ready

WORKER_DEVICES = ("h200", "tesla-c1060")  # one worker each, as two GPU hosts would serve them


def redis_server_program() -> str:
    """The redis-server program; skips the test (or fails it where CI requires Redis) when absent."""
    pytest.importorskip("rq", reason="the job queue needs rq and redis: pip install overlapviz[lab-queue]")
    program = shutil.which("redis-server")
    if program is None:
        reason = "redis-server is not installed (apt install redis-server): the job-queue tests need a real Redis"
        if os.environ.get("OVERLAPVIZ_REQUIRE_REDIS"):
            pytest.fail(reason)
        pytest.skip(reason)
    return program


def free_port() -> int:
    """A port nothing listens on now (the OS's pick)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class RedisServer:
    process: subprocess.Popen
    port: int
    folder: tempfile.TemporaryDirectory

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @classmethod
    def start(cls) -> RedisServer:
        program = redis_server_program()
        folder = tempfile.TemporaryDirectory(prefix="overlapviz-redis-")
        port = free_port()
        command = [program, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        command += ["--dir", folder.name]
        process = subprocess.Popen(command, cwd=folder.name, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        server = cls(process, port, folder)
        deadline = time.monotonic() + START_LIMIT_S
        while not server.answers():
            if process.poll() is not None or time.monotonic() > deadline:
                server.stop()
                raise RuntimeError(f"redis-server did not start on port {port}")
            time.sleep(0.05)
        return server

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as connection:
                connection.sendall(b"PING\r\n")
                return connection.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()
        self.folder.cleanup()


@dataclass
class QueueWorker:
    process: subprocess.Popen
    printed: dict[str, str]
    errors: object  # its stderr, a file

    @property
    def key(self) -> str:
        return self.printed["device"]

    @classmethod
    def start(cls, url: str, device: str) -> QueueWorker:
        command = [sys.executable, "-m", "overlapviz", "worker", "--queue", url, "--device", device, "--backend", "sim"]
        errors = tempfile.TemporaryFile("w+")  # noqa: SIM115 (open while the worker runs)
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=errors, text=True)
        printed = read_until_ready(process)
        if "device" not in printed:
            process.kill()
            process.wait()
            errors.seek(0)
            raise RuntimeError(f"the worker did not start: {errors.read()[-2000:]}")
        return cls(process, printed, errors)

    def stderr(self) -> str:
        self.errors.seek(0)
        return self.errors.read()

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(20)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self.process.communicate()
            self.errors.close()


@dataclass
class QueueLab:
    """Redis, one worker per device of `WORKER_DEVICES`, and the front, all real processes."""

    redis: RedisServer
    front: LabServer | None = None
    workers: dict[str, QueueWorker] = field(default_factory=dict)  # by the model's device key

    @classmethod
    def start(cls, *front_flags: str) -> QueueLab:
        lab = cls(RedisServer.start())
        try:
            for device in WORKER_DEVICES:
                lab.workers[device] = QueueWorker.start(lab.redis.url, device)
            lab.front = LabServer.start("--queue", lab.redis.url, *front_flags)
            lab.wait_for_devices(len(WORKER_DEVICES))
        except BaseException:
            lab.stop()
            raise
        return lab

    @property
    def server(self) -> LabServer:
        assert self.front is not None
        return self.front

    def key(self, device: str) -> str:
        """The lab's key of the model's device `device` (what requests name)."""
        return self.workers[device].key

    def wait_for_devices(self, count: int, limit_s: float = 20.0) -> list[dict]:
        """The front's devices once it lists `count` of them."""
        deadline = time.monotonic() + limit_s
        while True:
            devices = self.server.call("/v1/status").body["devices"]
            if len(devices) == count or time.monotonic() > deadline:
                return devices
            time.sleep(0.1)

    def stop(self) -> str:
        """Stop everything; the front's stderr, which must hold no traceback."""
        errors = ""
        if self.front is not None:
            assert self.front.stop() == 0
            errors = self.front.stderr()
            self.front.errors.close()
        for worker in self.workers.values():
            worker.stop()
        self.redis.stop()
        return errors


def started_lab(*front_flags: str):
    """A `QueueLab` for one test module (a generator for a fixture); checks the front logged no traceback."""
    lab = QueueLab.start(*front_flags)
    try:
        yield lab
    finally:
        errors = lab.stop()
    assert "Traceback" not in errors, errors[-3000:]
