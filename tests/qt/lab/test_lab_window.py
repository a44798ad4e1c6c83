"""The window on the class's lab GPU, against a real lab server on the model: no server is faked."""

from __future__ import annotations

import errno
import os
import socket
import threading

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from overlapviz._qt.main_window import MainWindow
from overlapviz.app.lab_connection import LAB_TARGET, LabSettings
from overlapviz.core.config import PipelineConfig
from overlapviz.lab.client_result import lab_origin
from overlapviz.lab.follow_client import FollowStream
from tests.lab.lab_client_server import LabAccess, access, busy_queue
from tests.lab.lab_server import LabServer, shared_lab_server  # noqa: F401 (the server fixture)

WAIT_MS = 60_000  # a run through a child process on a loaded machine


@pytest.fixture
def server(lab_server: LabServer) -> LabAccess:
    return access(lab_server)


def lab_run_on_show(window: MainWindow) -> str | None:
    shown = window.shown()
    return lab_origin(shown.view.trace.meta) if shown is not None else None


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_the_dialog_sends_runs_to_the_server_and_the_badge_says_where(
    window: MainWindow, qtbot: QtBot, server: LabAccess, settings: QSettings
) -> None:
    dialog = window.lab_tools.ask()
    dialog.url_edit.setText(server.url.removeprefix("http://"))
    dialog.code_edit.setText(server.join_code.lower())
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: lab_run_on_show(window) is not None, timeout=WAIT_MS)
    host = server.url.removeprefix("http://")
    badge = window.timeline.simulated_badge
    assert badge.isVisible() and badge.text() == f"Simulated on NVIDIA H200 (model) at {host}"
    assert window.model.target == LAB_TARGET
    assert settings.value("lab/url") == server.url and settings.value("lab/code") == server.join_code.lower()


def test_an_address_that_is_none_keeps_the_dialog_open(window: MainWindow, qtbot: QtBot) -> None:
    dialog = window.lab_tools.ask()
    dialog.url_edit.setText("ftp://lab")
    dialog.code_edit.setText("ABCD-EFGH")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert dialog.isVisible() and dialog.problem.text().startswith("Not a lab server address: ftp://lab")
    dialog.reject()


def test_choosing_the_lab_without_a_server_asks_and_cancel_goes_back(window: MainWindow, qtbot: QtBot) -> None:
    before = window.model.target
    window.controller.choose_target(LAB_TARGET)
    qtbot.waitUntil(lambda: window.lab_tools.dialog is not None and window.lab_tools.dialog.isVisible())
    assert window.lab_tools.dialog is not None
    window.lab_tools.dialog.reject()
    qtbot.waitUntil(lambda: window.model.target == before)


def test_a_waiting_run_shows_its_place_in_the_queue(window: MainWindow, qtbot: QtBot, server: LabAccess) -> None:
    window.model.set_live(False)
    window.lab.set(LabSettings(server.url, server.join_code))
    window.controller.choose_target(LAB_TARGET)
    with busy_queue(server):
        # settings no other test of the shared server asks for: an answer from its cache would not wait
        window.controller.edit_config(PipelineConfig(chunks=5, iters=4321))
        window.request_run()
        label = window.lab_tools.status_label
        qtbot.waitUntil(lambda: label.text().startswith("Waiting for the lab GPU: "), timeout=WAIT_MS)
        assert "in the queue" in label.text()
    qtbot.waitUntil(
        lambda: lab_run_on_show(window) is not None and not label.text().startswith("Waiting"), timeout=WAIT_MS
    )


def test_an_unreachable_server_is_said_with_the_model_one_click_away(window: MainWindow, qtbot: QtBot) -> None:
    port = closed_port()
    window.model.set_live(False)
    window.lab_tools.use(LabSettings(f"http://127.0.0.1:{port}", "ABCD-EFGH"))
    strip = window.lab_tools.strip
    qtbot.waitUntil(strip.isVisible, timeout=WAIT_MS)
    assert strip.message() == (
        f"The run did not reach the lab GPU: cannot reach the lab server at http://127.0.0.1:{port}:"
        f" [Errno {errno.ECONNREFUSED}] {os.strerror(errno.ECONNREFUSED)}."
    )
    assert window.banner.message() == ""  # said once
    shown_before = window.shown()
    strip.model_button.click()
    qtbot.waitUntil(lambda: window.shown() is not shown_before, timeout=WAIT_MS)
    assert window.model.target is not None and window.model.target.simulated
    assert not strip.isVisible() and lab_run_on_show(window) is None


def test_following_shows_the_instructors_run(window: MainWindow, qtbot: QtBot, server: LabAccess) -> None:
    window.model.set_live(False)
    window.lab_tools.use(LabSettings(server.url, server.join_code))
    qtbot.waitUntil(lambda: lab_run_on_show(window) is not None, timeout=WAIT_MS)
    window.lab_tools.follow_action.trigger()
    instructor = server.client(server.instructor_token, "instructor")
    label = window.lab_tools.status_label
    qtbot.waitUntil(lambda: label.text() == "1 following the instructor", timeout=WAIT_MS)
    assert instructor.status()["followers"] == 1
    instructor.run(PipelineConfig(chunks=3, streams=3).to_dict())
    qtbot.waitUntil(lambda: window.model.config.chunks == 3 and window.model.config.streams == 3, timeout=WAIT_MS)
    shown = window.shown()
    assert shown is not None and shown.view.trace.meta.config is not None
    assert shown.view.trace.meta.config["chunks"] == 3 and lab_run_on_show(window) is not None
    window.lab_tools.follow_action.trigger()
    assert not window.lab_tools.follower.is_following()


def test_the_instructors_status_bar_counts_those_following_them(
    window: MainWindow, qtbot: QtBot, server: LabAccess
) -> None:
    window.model.set_live(False)
    window.lab_tools.use(LabSettings(server.url, server.instructor_token))
    label = window.lab_tools.status_label
    # a follower that left an earlier test is counted until the server's next keep-alive finds it gone
    qtbot.waitUntil(lambda: label.text() == "0 following you", timeout=WAIT_MS)
    stream = FollowStream(server.client(client_id="follower"))
    reader = threading.Thread(target=lambda: next(iter(stream), None), daemon=True)
    reader.start()
    try:
        qtbot.waitUntil(lambda: label.text() == "1 following you", timeout=WAIT_MS)
    finally:
        stream.close()
        reader.join(10)
