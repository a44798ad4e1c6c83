"""Talking to the lab server from a learner's machine: one run, the queue's state, every error in one line.

Standard library only (urllib, json), so the command line and the app need nothing more. The
HTTP contract is the lab server's (``POST /v1/runs``, ``GET /v1/status``, ``GET /v1/follow``,
the class's exercises);
every failure becomes one `LabError` whose message a learner can act on.

An https server's certificate is checked, as a browser would, against the system's
authorities; a class server with a certificate of its own is trusted by giving that
certificate (``--ca-file`` or ``$OVERLAPVIZ_CA_FILE``), never by turning the check off.
"""

from __future__ import annotations

import json
import os
import secrets
import ssl
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Any

from overlapviz.core.i18n import N_, _
from overlapviz.core.run_errors import BackendError

STATUS_TIMEOUT_S = 5.0  # the queue's state is a quick answer, or none
RUN_TIMEOUT_S = 600.0  # a run may wait in the class's queue behind others' runs
CLIENT_HEADER = "X-Overlapviz-Client"
CA_FILE_ENV = "OVERLAPVIZ_CA_FILE"
_NOT_ACCEPTED = N_("the join code was not accepted (check it with your instructor)")
_TRUST_HINT = N_("if the class's server has a certificate of its own, trust it with --ca-file or ${variable}")


class LabError(BackendError):
    """The lab server could not give an answer; the message says why in one line."""


class LabUnreachable(LabError):
    """No answer at all: the address is wrong, the server is down, or the network is."""


class LabForbidden(LabError):
    """The credential is good, but not for this: the instructor's alone, or the class's alone."""


class LabRunFailed(LabError):
    """The settings were fine, but the run itself failed on the server (out of memory, too long)."""


def new_client_id() -> str:
    """A random id for this user, so that the server shares its GPU fairly between learners."""
    return f"ovz-{secrets.token_hex(8)}"


def server_url(text: str) -> str:
    """``http://host:port`` from what a user typed (``host:port`` alone is taken as http).

    Raises
    ------
    LabError
        `text` is no http(s) address.
    """
    text = text.strip()
    if text and "://" not in text:
        text = f"http://{text}"
    try:
        parts = urllib.parse.urlsplit(text)
        usable = parts.scheme in ("http", "https") and bool(parts.hostname) and parts.port != 0
    except ValueError:  # a port that is no number
        usable = False
    if not usable:
        given = text or _("nothing given")
        raise LabError(_("not a lab server address: {given} (write it as http://HOST:PORT)").format(given=given))
    return text.rstrip("/")


def server_host(url: str) -> str:
    """``host:port`` of the server, as the timeline's badge names it."""
    return urllib.parse.urlsplit(url).netloc


def tls_context(ca_file: str | None) -> ssl.SSLContext:
    """What checks an https server's certificate: the system's authorities, and `ca_file`'s certificates too.

    Raises
    ------
    LabError
        `ca_file` cannot be read as PEM certificates.
    """
    context = ssl.create_default_context()
    if ca_file:
        try:
            context.load_verify_locations(cafile=ca_file)
        except (OSError, ssl.SSLError) as error:
            said = " ".join(str(error.strerror or error).split())
            where = f"--ca-file / ${CA_FILE_ENV} {ca_file}"
            message = _("{where}: no certificates can be read from it ({error})")
            raise LabError(message.format(where=where, error=said)) from None
    return context


class LabClient:
    """One user's connection to one lab server: `url`, the join code or token, and the user's id.

    `ca_file` (else ``$OVERLAPVIZ_CA_FILE``) names certificates to trust besides the system's,
    for a server at an https address.

    Raises
    ------
    LabError
        `url` is no http(s) address, or `ca_file` cannot be read.
    """

    def __init__(self, url: str, credential: str, client_id: str, ca_file: str | None = None) -> None:
        self.url = server_url(url)
        self.credential = credential.strip()
        self.client_id = client_id
        https = urllib.parse.urlsplit(self.url).scheme == "https"
        self.tls = tls_context(ca_file or os.environ.get(CA_FILE_ENV)) if https else None

    def headers(self) -> dict[str, str]:
        """What every request carries: the credential and the user's id."""
        return {"Authorization": f"Bearer {self.credential}", CLIENT_HEADER: self.client_id}

    def run(self, config_table: Mapping[str, Any], trace: bool = True, device: str | None = None) -> dict[str, Any]:
        """Run a preset's ``[config]`` table on the server; its JSON answer (with the trace when `trace`).

        Raises
        ------
        LabError
            Unreachable, not accepted, bad settings, too busy (when to retry), or the run failed.
        """
        body: dict[str, Any] = {"config": dict(config_table), "trace": trace}
        if device:
            body["device"] = device
        return self._request("POST", "/v1/runs", body, RUN_TIMEOUT_S)

    def status(self) -> dict[str, Any]:
        """The server's devices and queues, and this user's place in them.

        Raises
        ------
        LabError
            Unreachable or not accepted.
        """
        return self._request("GET", "/v1/status", None, STATUS_TIMEOUT_S)

    def send_exercise(self, name: str) -> dict[str, Any]:
        """Send the shipped exercise `name` to everyone following (the instructor's credential): its round.

        Raises
        ------
        LabError
            Unreachable, not accepted, no such exercise; `LabForbidden` for the class's credential.
        """
        return self._request("POST", "/v1/exercise", {"exercise": name}, STATUS_TIMEOUT_S)

    def predict(self, name: str, round_number: int, answer: str | float) -> dict[str, Any]:
        """Count this user's prediction in round `round_number` of exercise `name` (a second replaces the first).

        Raises
        ------
        LabError
            Unreachable, not accepted, the round is over, or an answer the exercise does not take.
        """
        body = {"exercise": name, "round": round_number, "answer": answer}
        return self._request("POST", "/v1/predictions", body, STATUS_TIMEOUT_S)

    def class_predictions(self, name: str) -> dict[str, Any]:
        """The class's predictions of exercise `name`'s latest round, as a histogram (the instructor's credential).

        Raises
        ------
        LabError
            Unreachable, not accepted, no such exercise; `LabForbidden` for the class's credential.
        """
        query = urllib.parse.urlencode({"exercise": name})
        return self._request("GET", f"/v1/predictions?{query}", None, STATUS_TIMEOUT_S)

    def _request(self, method: str, path: str, body: Any, timeout: float) -> dict[str, Any]:
        headers = self.headers()
        data = None
        if body is not None:
            data = json.dumps(body, allow_nan=False).encode()
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=timeout, context=self.tls) as answer:
                raw = answer.read()
        except urllib.error.HTTPError as error:
            raise http_error(error.code, _error_line(error), error.headers.get("Retry-After")) from None
        except TimeoutError:
            message = _("the lab server at {url} did not answer within {seconds} s")
            raise LabUnreachable(message.format(url=self.url, seconds=f"{timeout:.0f}")) from None
        except (urllib.error.URLError, OSError, ValueError) as error:
            raise self.unreachable(error) from None
        return self._json(raw)

    def unreachable(self, error: BaseException) -> LabUnreachable:
        """The one error for no answer, with the network's own reason."""
        reason = getattr(error, "reason", None) or error
        said = " ".join(str(reason).split())
        if isinstance(reason, ssl.SSLCertVerificationError):
            said = f"{said} ({_(_TRUST_HINT).format(variable=CA_FILE_ENV)})"
        return LabUnreachable(_("cannot reach the lab server at {url}: {error}").format(url=self.url, error=said))

    def _json(self, raw: bytes) -> dict[str, Any]:
        try:
            answer = json.loads(raw)
        except (ValueError, RecursionError):
            raise LabError(_("the lab server at {url} sent an answer that is not JSON").format(url=self.url)) from None
        if not isinstance(answer, dict):
            raise LabError(_("the lab server at {url} sent an answer that is not a JSON object").format(url=self.url))
        return answer


def http_error(code: int, reason: str, retry_after: str | None = None) -> LabError:
    """The `LabError` for an answer with HTTP status `code` and the server's one-line `reason`."""
    if code == 401:
        return LabError(_(_NOT_ACCEPTED))
    if code == 403:
        return LabForbidden(reason)
    if code == 429:
        message = _("the lab server is busy with your runs: {retry} ({reason})")
        return LabError(message.format(retry=retry_text(retry_after), reason=reason))
    if code == 422:
        return LabRunFailed(_("the run failed on the lab server: {reason}").format(reason=reason))
    if code in (400, 413):
        return LabError(reason)
    return LabError(_("the lab server answered {code}: {reason}").format(code=code, reason=reason))


def retry_text(retry_after: str | None) -> str:
    """``try again in 3 s``, from a Retry-After header in seconds (or a vaguer word without one)."""
    try:
        seconds = max(1, round(float(retry_after or "")))
    except ValueError:
        return _("try again in a moment")
    return _("try again in {seconds} s").format(seconds=seconds)


def _error_line(error: urllib.error.HTTPError) -> str:
    """The server's ``{"error": ...}`` line, or the HTTP reason where the body has none."""
    try:
        body = json.loads(error.read() or b"null")
    except (ValueError, OSError, RecursionError):
        body = None
    text = body.get("error") if isinstance(body, dict) else None
    return " ".join(str(text or error.reason or _("no reason given")).split())
