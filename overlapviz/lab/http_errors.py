"""Every error the lab server answers is JSON, ``{"error": "<one line>"}``, and none is a 5xx for client input.

`LabError` carries a status, a reason and headers (Retry-After, say). The middleware turns it,
aiohttp's own HTTP errors (404, 405, 413) and anything unexpected into JSON; an unexpected
failure while handling a request answers 400 and is logged, since whatever the client sent
must not look like the server falling over.

A reason is in the server's language (``overlapviz --lang LANG serve``): a request does not
say its client's, and the class's server is started in the class's. The client wraps it in
a sentence of its own language (`overlapviz.lab.client`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from overlapviz.core.i18n import _
from overlapviz.lab.job_run import one_line

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
LOG = logging.getLogger("overlapviz.lab")


class LabError(Exception):
    """An answer other than 200: its status, its one-line reason, and any headers."""

    def __init__(self, status: int, reason: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(reason)
        self.status = status
        self.headers = headers or {}


def body_over_limit(limit_bytes: int) -> str:
    """Why a request's body is refused for its size."""
    return _("the body is over the limit of {limit} bytes").format(limit=limit_bytes)


def body_too_slow(limit_s: float) -> str:
    """Why a request whose body came too slowly is refused."""
    return _("the body did not arrive within {seconds} s").format(seconds=f"{limit_s:g}")


def error_response(status: int, reason: str, headers: dict[str, str] | None = None) -> web.Response:
    """``{"error": reason}`` with `status`."""
    return web.json_response({"error": one_line(reason)}, status=status, headers=headers)


@web.middleware
async def json_errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Answer every failure of `handler` as JSON (see the module's docstring)."""
    try:
        return await handler(request)
    except LabError as error:
        return error_response(error.status, str(error), error.headers)
    except web.HTTPException as error:
        if error.status < 400:
            raise
        status = 400 if error.status >= 500 else error.status
        return error_response(status, error.text or error.reason)
    except ConnectionError:  # the client went away: an everyday event, not worth a traceback
        return error_response(400, _("the connection was lost"))
    except Exception as error:  # a request the handlers did not foresee: the client's, never the server's fault
        LOG.exception("request %s %s failed", request.method, request.path)
        return error_response(400, _("the request could not be handled: {error}").format(error=type(error).__name__))
