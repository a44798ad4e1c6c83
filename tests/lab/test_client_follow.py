"""The lab client against a real server: the queue's state, its refusals in one line, and following the instructor."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from overlapviz.core.cancel import CancelToken
from overlapviz.core.config import PipelineConfig
from overlapviz.lab.client import LabClient, LabError, server_url
from overlapviz.lab.client_result import lab_origin, lab_run
from overlapviz.lab.client_status import is_instructor
from overlapviz.lab.client_wait import run_waiting
from overlapviz.lab.follow_client import FollowStream
from overlapviz.session import run_pipeline
from tests.lab.lab_client_server import LabAccess, access, busy_queue, slow_config
from tests.lab.lab_server import LabServer, shared_lab_server  # noqa: F401 (the server fixture)


@pytest.fixture
def server(lab_server: LabServer) -> LabAccess:
    return access(lab_server)


def test_status_names_the_device_and_the_caller(server: LabAccess) -> None:
    status = server.client(client_id="learner-7").status()
    assert status["devices"][0]["key"] == "h200"
    assert status["you"]["client"] == "learner-7" and status["you"]["position"] == 0


@pytest.mark.parametrize(
    ("token", "role"), [("join_code", "class"), ("class_token", "class"), ("instructor_token", "instructor")]
)
def test_status_says_the_role_the_credential_gives(server: LabAccess, token: str, role: str) -> None:
    status = server.client(getattr(server, token)).status()
    assert status["you"]["role"] == role
    assert is_instructor(status) is (role == "instructor")


def test_a_run_comes_back_as_the_local_run_with_where_it_was_made(server: LabAccess) -> None:
    config = PipelineConfig(chunks=8)
    run = lab_run(server.client().run(config.to_dict()), server.url)
    local = run_pipeline(config, "sim")
    assert run.config == config
    assert run.result.metrics == local.metrics
    assert [f.message for f in run.result.findings] == [f.message for f in local.findings]
    host = server.url.removeprefix("http://")
    assert lab_origin(run.result.trace.meta) == f"simulated on NVIDIA H200 (model) at {host}"
    assert lab_origin(local.trace.meta) is None


def test_a_waiting_run_tells_its_place_in_the_queue(server: LabAccess) -> None:
    places: list[int] = []
    with busy_queue(server):
        answer = run_waiting(
            server.client(client_id="waiter"), PipelineConfig(chunks=6).to_dict(), CancelToken(), places.append
        )
    assert answer["config"]["chunks"] == 6
    assert any(place >= 1 for place in places) and places[-1] == 0


@pytest.mark.parametrize(
    ("credential", "config", "words"),
    [
        ("nope", {}, "the join code was not accepted"),
        (None, {"chunks": 0}, "chunks"),
        (None, {"no_such_setting": 1}, "no_such_setting"),
    ],
)
def test_refusals_are_one_line(server: LabAccess, credential: str | None, config: dict[str, Any], words: str) -> None:
    with pytest.raises(LabError) as refused:
        server.client(credential).run(config)
    message = str(refused.value)
    assert words in message and "\n" not in message


def test_too_many_runs_at_once_say_when_to_try_again(server: LabAccess) -> None:
    client = server.client(client_id="impatient")
    errors: list[str] = []

    def post() -> None:
        try:
            client.run(slow_config(), trace=False)
        except LabError as error:
            errors.append(str(error))

    posts = [threading.Thread(target=post) for _ in range(8)]
    for thread in posts:
        thread.start()
    for thread in posts:
        thread.join(120)
    assert any("try again in" in error for error in errors), errors


def test_following_gets_each_instructor_run(server: LabAccess) -> None:
    stream = FollowStream(server.client(client_id="follower"))
    arrived: list[dict[str, Any]] = []

    def follow() -> None:
        for answer in stream:
            arrived.append(answer)
            stream.close()

    reader = threading.Thread(target=follow)
    reader.start()
    instructor = server.client(server.instructor_token, "instructor")
    for _ in range(100):  # until the server counts the follower, then the instructor runs
        if instructor.status()["followers"] >= 1:
            break
        threading.Event().wait(0.1)
    instructor.run(PipelineConfig(chunks=3).to_dict())
    reader.join(60)
    assert not reader.is_alive()
    assert lab_run(arrived[0], server.url).config == PipelineConfig(chunks=3)


def test_following_with_a_wrong_code_is_refused(server: LabAccess) -> None:
    with pytest.raises(LabError, match="join code was not accepted"):
        next(iter(FollowStream(server.client("WRONG"))))


@pytest.mark.parametrize("text", ["", "ftp://host", "http://"])
def test_an_address_that_is_none_is_said(text: str) -> None:
    with pytest.raises(LabError, match="not a lab server address"):
        server_url(text)


def test_host_and_port_alone_are_taken_as_http() -> None:
    assert server_url(" lab.example:8470/ ") == "http://lab.example:8470"
    assert LabClient("lab:1", " K7QF-2M9D ", "me").headers()["Authorization"] == "Bearer K7QF-2M9D"
