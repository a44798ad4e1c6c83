"""The lab server as users start it (``python -m overlapviz serve``), and plain HTTP calls to it.

`LabServer.start` runs the real command in a subprocess with ``--port 0`` and reads the URL
and credentials it prints. `lab_server` is one server on the model shared by the lab tests
(each test module imports `shared_lab_server`; the server stops after the last of them).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEVICES = ("h200", "tesla-c1060")
START_LIMIT_S = 60.0


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: dict

    @property
    def server(self) -> dict:
        return self.body["server"]


@dataclass
class LabServer:
    process: subprocess.Popen
    printed: dict[str, str]
    errors: object  # the server's stderr, a file: a pipe nobody reads would fill and stop it
    logged: str = ""  # what it wrote there, once stopped

    def stderr(self) -> str:
        if self.errors.closed:
            return self.logged
        self.errors.seek(0)
        return self.errors.read()

    @property
    def url(self) -> str:
        return self.printed["url"]

    @property
    def token(self) -> str:
        return self.printed["class token"]

    @classmethod
    def start(cls, *flags: str) -> LabServer:
        command = [sys.executable, "-m", "overlapviz", "serve", "--backend", "sim", "--host", "127.0.0.1"]
        command += ["--port", "0", "--devices", ",".join(DEVICES), *flags]
        errors = tempfile.TemporaryFile("w+")  # noqa: SIM115 (open while the server runs)
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=errors, text=True)
        printed = read_until_ready(process)
        if "url" not in printed:
            process.kill()
            process.wait()
            errors.seek(0)
            raise RuntimeError(f"the server did not start: {errors.read()[-2000:]}")
        return cls(process, printed, errors)

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(20)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self.process.communicate()
            self.logged = self.stderr()
            self.errors.close()

    def call(
        self,
        path: str,
        body: object = None,
        token: str | None = None,
        client: str | None = None,
        raw: bytes | None = None,
        timeout: float = 30,
    ) -> Answer:
        """GET `path`, or POST `body` as JSON (or `raw` bytes as they are)."""
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {self.token if token is None else token}"}
        if client is not None:
            headers["X-Overlapviz-Client"] = client
        request = urllib.request.Request(self.url + path, data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return Answer(response.status, dict(response.headers), json.loads(response.read()))
        except urllib.error.HTTPError as error:
            return Answer(error.code, dict(error.headers), json.loads(error.read()))

    def run(self, config: dict, **options) -> Answer:
        extra = {key: options.pop(key) for key in ("device", "trace") if key in options}
        return self.call("/v1/runs", {"config": config, **extra}, **options)


_shared: dict[str, object] = {"server": None, "users": 0}


@pytest.fixture(scope="session", name="lab_server")
def shared_lab_server():
    """One model server for the lab tests (default limits, devices `DEVICES`)."""
    if _shared["users"] == 0:
        _shared["server"] = LabServer.start()
    _shared["users"] = int(_shared["users"]) + 1
    server = _shared["server"]
    yield server
    _shared["users"] = int(_shared["users"]) - 1
    if _shared["users"] == 0:
        assert server.stop() == 0
        errors = server.stderr()
        assert "Traceback" not in errors, errors[-3000:]  # no request failed in a way the server did not foresee


def local_run_json(config_flags: list[str], device: str) -> dict:
    """What ``overlapviz run --json`` prints for the same settings, run here."""
    command = [sys.executable, "-m", "overlapviz", "run", "--json", "--backend", "sim", "--device", device]
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([*command, *config_flags], cwd=ROOT, capture_output=True, text=True, env=env, check=True)
    return json.loads(done.stdout)


def read_until_ready(process: subprocess.Popen) -> dict[str, str]:
    """The ``name: value`` lines a command (``serve``, ``worker``) prints before ``ready``."""
    printed: dict[str, str] = {}
    deadline = time.monotonic() + START_LIMIT_S
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line or line.strip() == "ready":
            break
        name, _, value = line.strip().partition(": ")
        printed[name] = value
    return printed
