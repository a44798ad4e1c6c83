"""The lab server refuses what it must, with a JSON reason and the right status, and stays up."""

import json
import socket
import threading
import time
from urllib.parse import urlsplit

import pytest

from tests.lab.lab_server import shared_lab_server  # noqa: F401 (the fixture lab_server)

GARBAGE = {
    "not UTF-8": b"\xff\xfe{",
    "not JSON": b"{",
    "NaN": b'{"config": {"chunks": NaN}}',
    "nested deep": b"[" * 60_000,
    "not an object": b"[1, 2]",
    "no config": b'{"trace": true}',
    "config not an object": b'{"config": "chunks=4"}',
}
REFUSED = {
    "wrong type": ({"config": {"chunks": "many"}}, "chunks"),
    "a list for a number": ({"config": {"streams": [1, 2]}}, "streams"),
    "out of range": ({"config": {"chunks": 0}}, "chunks"),
    "unknown setting": ({"config": {"colour": "red"}}, "colour"),
    "a path": ({"config": {"path": "/etc/passwd"}}, "path"),
    "a script beside the config": ({"config": {"chunks": 4}, "script": "import os"}, "script"),
    "a script inside": ({"config": {"script": "import os"}}, "script"),
    "a file": ({"config": {"chunks": 4}, "file": "x.json"}, "file"),
    "trace not a flag": ({"config": {}, "trace": "yes"}, "trace"),
    "unknown device": ({"config": {}, "device": "h100"}, "h100"),
    "device inside the config": ({"config": {"device": "h200"}}, "device"),
}


def _status_answers(server):
    assert server.call("/v1/status").status == 200


@pytest.mark.parametrize("token", ["", "wrong-token", "AAAA-BBBB"])
def test_a_wrong_or_missing_credential_is_401(lab_server, token):
    answer = lab_server.call("/v1/status", token=token)
    assert answer.status == 401
    assert "credential" in answer.body["error"]


def test_the_join_code_in_any_case_and_without_its_dash_is_the_class_credential(lab_server):
    code = lab_server.printed["join code"]
    for written in (code, code.lower(), code.replace("-", "")):
        assert lab_server.call("/v1/status", token=written).status == 200
    assert lab_server.call("/v1/status", token=lab_server.printed["instructor token"]).status == 200


@pytest.mark.parametrize("body", GARBAGE.values(), ids=GARBAGE.keys())
def test_garbage_is_400_with_a_one_line_reason(lab_server, body):
    answer = lab_server.call("/v1/runs", raw=body)
    assert answer.status == 400
    assert "\n" not in answer.body["error"] and answer.body["error"]


@pytest.mark.parametrize(("body", "named"), REFUSED.values(), ids=REFUSED.keys())
def test_settings_the_presets_validator_refuses_are_400_naming_the_key(lab_server, body, named):
    answer = lab_server.call("/v1/runs", body)
    assert answer.status == 400
    assert named in answer.body["error"]


def test_a_bad_client_name_is_400(lab_server):
    assert lab_server.call("/v1/status", client="no spaces/please").status == 400


def test_a_body_over_64_kib_is_413_whether_its_length_is_given_or_not(lab_server):
    padding = "x" * (70 * 1024)
    answer = lab_server.call("/v1/runs", raw=json.dumps({"config": {}, "pad": padding}).encode())
    assert answer.status == 413
    assert "error" in answer.body
    status, body = _chunked_post(lab_server, b"{" + b" " * (70 * 1024) + b"}")
    assert status == 413
    assert "error" in json.loads(body)
    _status_answers(lab_server)


def test_a_client_over_its_rate_is_429_with_retry_after(lab_server):
    statuses = []
    for _ in range(30):
        answer = lab_server.run({"chunks": 9}, client="hasty")
        statuses.append(answer.status)
        if answer.status == 429:
            break
    assert statuses[-1] == 429, statuses
    assert int(answer.headers["Retry-After"]) >= 1
    assert "error" in answer.body
    assert lab_server.run({"chunks": 9}, client="patient").status == 200  # others are not held back


def test_a_client_over_its_queued_jobs_is_429(lab_server):
    answers = []

    def ask(iters):
        answers.append(lab_server.run({"chunks": 600, "iters": iters}, device="tesla-c1060", client="greedy"))

    threads = [threading.Thread(target=ask, args=(2000 + n,)) for n in range(7)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = sorted(answer.status for answer in answers)
    assert 429 in statuses and 200 in statuses, statuses
    refused = next(answer for answer in answers if answer.status == 429)
    assert refused.headers["Retry-After"] == "1"


def test_a_slow_or_stalled_upload_does_not_hold_up_the_others(lab_server):
    stalled = _send_headers_then(lab_server, b'{"config"')
    trickling = _send_headers_then(lab_server, b"{")
    stop = threading.Event()

    def trickle():
        while not stop.wait(0.05):
            try:
                trickling.sendall(b" ")
            except OSError:
                return

    thread = threading.Thread(target=trickle)
    thread.start()
    try:
        started = time.monotonic()
        for n in range(5):
            assert lab_server.run({"chunks": 10 + n}, client=f"brisk-{n}").status == 200
        assert time.monotonic() - started < 10
    finally:
        stop.set()
        thread.join()
        stalled.close()
        trickling.close()
    _status_answers(lab_server)


def _connect(server):
    parts = urlsplit(server.url)
    return socket.create_connection((parts.hostname, parts.port), timeout=10)


def _headers(server, extra):
    return (
        f"POST /v1/runs HTTP/1.1\r\nHost: lab\r\nAuthorization: Bearer {server.token}\r\n"
        f"Content-Type: application/json\r\n{extra}\r\n"
    ).encode()


def _send_headers_then(server, start):
    connection = _connect(server)
    connection.sendall(_headers(server, "Content-Length: 4000\r\n") + start)
    return connection


def _chunked_post(server, body):
    with _connect(server) as connection:
        connection.sendall(_headers(server, "Transfer-Encoding: chunked\r\nConnection: close\r\n"))
        try:
            for start in range(0, len(body), 8192):
                piece = body[start : start + 8192]
                connection.sendall(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
            connection.sendall(b"0\r\n\r\n")
        except OSError:  # the server may answer and close before the body ends
            pass
        reply = b""
        while chunk := connection.recv(65536):
            reply += chunk
    head, _, body_text = reply.partition(b"\r\n\r\n")
    return int(head.split()[1]), body_text


def test_a_run_the_backend_refuses_is_422_with_its_reason_and_the_device_goes_on(lab_server):
    refused = lab_server.run({"gpus": 2}, device="h200")  # valid settings; the one-GPU model cannot run them
    assert refused.status == 422
    assert "one GPU" in refused.body["error"]
    assert lab_server.run({"chunks": 11}, device="h200").status == 200
