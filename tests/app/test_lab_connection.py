"""The lab GPU as a place to run, without Qt: its target, its remembered address, its runs on a real server."""

from __future__ import annotations

import errno
import os
import socket
import subprocess
import sys

import pytest
from fakes import H200, SIM_TARGETS, DictSettings, ManualTimer, Messages, QueuedExecutor

from overlapviz.app.controller import AppController
from overlapviz.app.lab_connection import (
    CLIENT_KEY,
    LAB_TARGET,
    LabConnection,
    LabNotReached,
    LabSettings,
    is_lab,
    with_lab,
)
from overlapviz.app.model import AppModel
from overlapviz.core.cancel import CancelToken
from overlapviz.core.config import PipelineConfig
from overlapviz.lab.client import LabError
from overlapviz.lab.client_result import lab_origin
from overlapviz.session import run_pipeline
from tests.lab.lab_client_server import LabAccess, access
from tests.lab.lab_server import LabServer, shared_lab_server  # noqa: F401 (the server fixture)


@pytest.fixture
def server(lab_server: LabServer) -> LabAccess:
    return access(lab_server)


def test_the_lab_is_offered_after_the_targets_here() -> None:
    offered = with_lab(SIM_TARGETS)
    assert offered[:-1] == SIM_TARGETS and offered[-1] == LAB_TARGET
    assert is_lab(LAB_TARGET) and not is_lab(H200) and not is_lab(None)


def test_the_address_code_and_id_are_remembered() -> None:
    store = DictSettings()
    first = LabConnection(store)
    assert first.settings is None and store[CLIENT_KEY] == first.client_id
    first.set(LabSettings("http://lab:8470", "K7QF-2M9D"))
    again = LabConnection(store)
    assert again.settings == LabSettings("http://lab:8470", "K7QF-2M9D")
    assert again.client_id == first.client_id  # one user, one id, across launches
    assert LabConnection(DictSettings()).client_id != first.client_id


def test_other_targets_run_here() -> None:
    run = LabConnection(None).run_function(run_pipeline)
    result = run(PipelineConfig(chunks=4), "sim", "h200", CancelToken())
    assert lab_origin(result.trace.meta) is None and result.trace.meta.backend == "sim"


def test_the_lab_target_runs_on_the_server(server: LabAccess) -> None:
    connection = LabConnection(DictSettings())
    connection.set(LabSettings(server.url, server.join_code))
    places: list[int] = []
    connection.position_changed.connect(places.append)
    result = connection.run_function(run_pipeline)(PipelineConfig(chunks=4), "lab", "", CancelToken())
    local = run_pipeline(PipelineConfig(chunks=4), "sim", "h200")
    assert result.metrics == local.metrics
    assert lab_origin(result.trace.meta) is not None and places[-1:] == [0]


def test_no_server_set_says_how_to_set_one() -> None:
    with pytest.raises(LabError, match="Lab GPU"):
        LabConnection(None).run_on_server(PipelineConfig(), CancelToken())


def test_an_unreachable_server_is_told_and_ends_the_run_quietly() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    connection = LabConnection(None)
    connection.set(LabSettings(f"http://127.0.0.1:{port}", "ABCD-EFGH"))
    told: list[str] = []
    connection.unreachable.connect(told.append)
    controller = AppController(
        AppModel(), QueuedExecutor(), Messages(), ManualTimer(), run_function=connection.run_function(run_pipeline),
        targets=with_lab(SIM_TARGETS), default=H200, lessons=[],
    )  # fmt: skip
    controller.choose_target(LAB_TARGET)
    controller.run()
    controller.runs._executor.run_all()
    refused = f"[Errno {errno.ECONNREFUSED}] {os.strerror(errno.ECONNREFUSED)}"
    assert told == [f"cannot reach the lab server at http://127.0.0.1:{port}: {refused}"]
    assert controller.runs.messages.errors == []  # the window says it once, with the model beside it
    with pytest.raises(LabNotReached):
        connection.run_on_server(PipelineConfig(), CancelToken())


def test_the_lab_needs_no_qt() -> None:
    code = (
        "import sys, overlapviz.app.lab_connection, overlapviz.lab.follow_client, overlapviz.lab.client_wait;"
        " print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6')))"
    )
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "[]\n"
