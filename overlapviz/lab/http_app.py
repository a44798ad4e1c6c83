"""The lab server's HTTP routes: POST /v1/runs, GET /v1/status, GET /v1/follow (docs/lab.md).

Every request shows a credential first (`credentials`), then its client's share is checked
(`limits`), then the job goes through the cache (`cache`) to the dispatcher. The instructor's
runs go to every follower too (`follow`).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from overlapviz.core.i18n import _
from overlapviz.lab.cache import ResultCache
from overlapviz.lab.class_exercises import add_class_routes
from overlapviz.lab.credentials import Credentials, Role
from overlapviz.lab.device_choice import alike_scope, least_busy
from overlapviz.lab.dispatch import Dispatcher
from overlapviz.lab.follow import Followers
from overlapviz.lab.http_errors import LabError, body_over_limit, body_too_slow, json_errors
from overlapviz.lab.job import Job, JobFailed
from overlapviz.lab.limits import ClientShares, FailedLogins, Limits, OverShare
from overlapviz.lab.request import BadRequest, RunRequest, client_name, parse_run_request


@dataclass
class Lab:
    """Everything the routes share."""

    credentials: Credentials
    dispatcher: Dispatcher
    limits: Limits = field(default_factory=Limits)
    url: str = ""  # what answers give as "server.url"; set once the port is known
    cache: ResultCache = field(default_factory=ResultCache)
    followers: Followers = field(default_factory=Followers)

    def __post_init__(self) -> None:
        self.shares = ClientShares(self.limits)
        self.logins = FailedLogins(self.limits.failed_logins)


LAB_KEY: web.AppKey[Lab] = web.AppKey("lab", Lab)


def make_app(lab: Lab) -> web.Application:
    """The aiohttp application serving `lab` (bodies over the limit are refused by aiohttp with 413)."""
    app = web.Application(middlewares=[json_errors], client_max_size=lab.limits.max_body_bytes)
    app[LAB_KEY] = lab
    app.router.add_post("/v1/runs", post_run)
    app.router.add_get("/v1/status", get_status)
    app.router.add_get("/v1/follow", get_follow)
    add_class_routes(app, authorize, lab.followers)
    return app


def _lab(request: web.Request) -> Lab:
    return request.app[LAB_KEY]


def _peer(request: web.Request) -> str:
    return request.remote or "unknown"


def authorize(request: web.Request) -> tuple[Role, str]:
    """The caller's role and client name.

    Raises
    ------
    LabError
        401 without a valid credential, 429 after too many wrong ones from this address,
        400 for a bad client name.
    """
    lab, peer = _lab(request), _peer(request)
    try:
        lab.logins.check(peer)
    except OverShare as over:
        raise LabError(429, str(over), {"Retry-After": over.retry_after}) from None
    scheme, _space, credential = request.headers.get("Authorization", "").partition(" ")
    role = lab.credentials.role_of(credential.strip()) if scheme.lower() == "bearer" else None
    if role is None:
        lab.logins.failed(peer)
        raise LabError(401, _("a valid credential is needed: Authorization: Bearer <class token or join code>"))
    try:
        return role, client_name(request.headers.get("X-Overlapviz-Client"), peer)
    except BadRequest as error:
        raise LabError(400, str(error)) from None


async def read_run_request(request: web.Request) -> RunRequest:
    """The body, read within the time limit and checked (413 over the size limit, 408 too slow, 400 bad)."""
    limits = _lab(request).limits
    if request.content_length is not None and request.content_length > limits.max_body_bytes:
        raise LabError(413, body_over_limit(limits.max_body_bytes))
    try:
        async with asyncio.timeout(limits.body_limit_s):
            body = await request.read()
    except TimeoutError:
        raise LabError(408, body_too_slow(limits.body_limit_s)) from None
    except ConnectionError:  # the client went away mid-body: nobody reads the answer
        raise LabError(400, _("the connection closed before the body arrived")) from None
    try:
        return parse_run_request(body)
    except BadRequest as error:
        raise LabError(400, str(error)) from None


def job_of(lab: Lab, asked: RunRequest) -> Job:
    """The job for `asked`: on its device, or on the least busy like the first (400 for a device the server lacks)."""
    if not lab.dispatcher.devices:  # a queue's workers all gone: the server's state, not the request's fault
        raise LabError(503, _("no device is serving runs now; try again shortly"), {"Retry-After": "5"})
    if asked.device is None:
        chosen = least_busy(lab.dispatcher.status("").devices)
        return Job(asked.config, chosen.device.key, asked.trace, alike=alike_scope(chosen))
    keys = [device.key for device in lab.dispatcher.devices]
    if asked.device not in keys:
        message = _("unknown device {device}; this server has: {keys}")
        raise LabError(400, message.format(device=repr(asked.device), keys=", ".join(keys)))
    return Job(asked.config, asked.device, asked.trace)


async def post_run(request: web.Request) -> web.Response:
    """POST /v1/runs: run the settings (or answer from the cache) and answer ``run --json``'s report."""
    lab = _lab(request)
    role, client = authorize(request)
    job = job_of(lab, await read_run_request(request))
    if role is Role.CLASS:
        try:
            lab.shares.admit(client)
        except OverShare as over:
            raise LabError(429, str(over), {"Retry-After": over.retry_after}) from None
    else:
        lab.shares.seen(client)
    try:
        result = await lab.cache.get_or_run(job.cache_key(), lambda: lab.dispatcher.run(client, job))
    except JobFailed as failed:
        raise LabError(422, str(failed)) from None
    finally:
        if role is Role.CLASS:
            lab.shares.release(client)
    # a trace can take a while to write as JSON: off the event loop, which keeps answering the others
    text = await asyncio.to_thread(_dumps, result.answer(lab.url, job.trace or role is Role.INSTRUCTOR))
    if role is Role.INSTRUCTOR:
        lab.followers.publish(text)
        if not job.trace:
            text = await asyncio.to_thread(_dumps, result.answer(lab.url, with_trace=False))
    return web.Response(text=text, content_type="application/json")


def _dumps(value: Any) -> str:
    return json.dumps(value, allow_nan=False)


async def get_status(request: web.Request) -> web.Response:
    """GET /v1/status: the devices, the queue, the clients and followers, and the caller's role and place."""
    lab = _lab(request)
    role, client = authorize(request)
    lab.shares.seen(client)
    now = lab.dispatcher.status(client)
    devices = [
        {"key": s.device.key, "name": s.device.name, "backend": s.device.backend, "busy": s.busy, "queued": s.queued}
        for s in now.devices
    ]
    you = {
        "client": client, "role": role.value, "queued": lab.shares.in_flight(client), "position": now.client_position,
    }  # fmt: skip
    return web.json_response({
        "devices": devices, "queued": now.queued, "clients": lab.shares.active_clients(),
        "followers": len(lab.followers), "you": you,
    })  # fmt: skip


async def get_follow(request: web.Request) -> web.StreamResponse:
    """GET /v1/follow: the instructor's runs as Server-Sent Events."""
    authorize(request)
    return await _lab(request).followers.stream(request)
