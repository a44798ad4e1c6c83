"""Following the instructor: the server's ``GET /v1/follow`` stream of runs, read as they arrive.

Server-Sent Events over one long HTTP answer (http.client, standard library): each ``event: run``
carries the same JSON as a ``POST /v1/runs`` answer, each ``event: exercise`` the exercise the
instructor sent to the class and its round (`ExerciseSent`). The server writes a keep-alive comment
every 15 s, so a read that waits `FOLLOW_TIMEOUT_S` without one means the server is gone.
`close` may be called from another thread: it ends the wait at once.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from overlapviz.core.i18n import _
from overlapviz.lab.client import LabClient, LabError, http_error

FOLLOW_TIMEOUT_S = 40.0  # more than twice the server's keep-alive interval
MAX_EVENT_BYTES = 256 * 1024**2  # an event's data past this is no run this version can draw


@dataclass(frozen=True, slots=True)
class ExerciseSent:
    """The instructor sent exercise `exercise` to the class; predictions go to round `round`."""

    exercise: str
    round: int


class FollowStream:
    """The instructor's runs from one lab server, as an iterator of answers; `close` ends it."""

    def __init__(self, client: LabClient, timeout: float = FOLLOW_TIMEOUT_S) -> None:
        self._client = client
        self._timeout = timeout
        self._connection: http.client.HTTPConnection | None = None
        self._closed = False

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """Each run the instructor posts, from now on; ends quietly after `close` (see `events`)."""
        for event in self.events():
            if isinstance(event, dict):
                yield event

    def events(self) -> Iterator[dict[str, Any] | ExerciseSent]:
        """Each run the instructor posts (its answer) and each exercise they send; ends quietly after `close`.

        Raises
        ------
        LabError
            Unreachable, not accepted, or the stream broke off while not closed.
        """
        try:
            response = self._open()
            if self._closed:  # closed while connecting
                return
            for event, data in _events(response):
                if event == "run":
                    yield _run_answer(data)
                elif event == "exercise":
                    yield _exercise_sent(data)
        except (OSError, http.client.HTTPException) as error:
            if not self._closed:
                raise self._client.unreachable(error) from None
        finally:
            if self._connection is not None:
                self._connection.close()
        if not self._closed:
            raise LabError(_("the lab server at {url} ended the instructor's stream").format(url=self._client.url))

    def close(self) -> None:
        """Stop following (from any thread): the iterator ends without an error."""
        self._closed = True
        connection = self._connection
        sock = connection.sock if connection is not None else None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)  # wakes a read blocked in another thread

    def _open(self) -> http.client.HTTPResponse:
        parts = urllib.parse.urlsplit(self._client.url)
        if parts.scheme == "https":
            connection: http.client.HTTPConnection = http.client.HTTPSConnection(
                parts.netloc, timeout=self._timeout, context=self._client.tls
            )
        else:
            connection = http.client.HTTPConnection(parts.netloc, timeout=self._timeout)
        self._connection = connection
        headers = {**self._client.headers(), "Accept": "text/event-stream"}
        connection.request("GET", parts.path + "/v1/follow", headers=headers)
        response = connection.getresponse()
        if response.status != 200:
            raise http_error(response.status, _reason(response), response.getheader("Retry-After"))
        return response


def _events(response: http.client.HTTPResponse) -> Iterator[tuple[str, str]]:
    """(event name, data) of each event in the stream; comments (the keep-alives) are skipped."""
    name, data, size = "message", list[str](), 0
    while True:
        line = response.readline(MAX_EVENT_BYTES + 1)
        if not line:
            return
        text = line.decode("utf-8", "replace").rstrip("\r\n")
        if not text:
            if data:
                yield name, "\n".join(data)
            name, data, size = "message", [], 0
        elif text.startswith("event:"):
            name = text[6:].strip()
        elif text.startswith("data:"):
            size += len(line)
            if size > MAX_EVENT_BYTES:
                raise LabError(_("the lab server sent an instructor's run too large to draw"))
            data.append(text[5:].removeprefix(" "))


def _run_answer(data: str) -> dict[str, Any]:
    try:
        answer = json.loads(data)
    except (ValueError, RecursionError):
        raise LabError(_("the lab server sent an instructor's run that is not JSON")) from None
    if not isinstance(answer, dict):
        raise LabError(_("the lab server sent an instructor's run that is not a JSON object"))
    return answer


def _exercise_sent(data: str) -> ExerciseSent:
    try:
        sent = json.loads(data)
    except (ValueError, RecursionError):
        sent = None
    name = sent.get("exercise") if isinstance(sent, dict) else None
    number = sent.get("round") if isinstance(sent, dict) else None
    if not isinstance(name, str) or isinstance(number, bool) or not isinstance(number, int):
        raise LabError(_("the lab server sent an exercise this version cannot read"))
    return ExerciseSent(name, number)


def _reason(response: http.client.HTTPResponse) -> str:
    try:
        body = json.loads(response.read(64 * 1024) or b"null")
    except (ValueError, OSError, RecursionError):
        body = None
    text = body.get("error") if isinstance(body, dict) else None
    return " ".join(str(text or response.reason or _("no reason given")).split())
