"""Start the lab server, say where it is and how to get in, serve until Ctrl+C or SIGTERM, stop cleanly.

What it prints at start, one ``name: value`` a line (a script or a test reads them):
``url``, ``class token``, ``join code``, ``instructor token``, then ``backend`` and
``devices``, then ``ready``.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import ssl
import sys
from dataclasses import dataclass, field
from pathlib import Path

from aiohttp import web

from overlapviz.core.i18n import _
from overlapviz.lab.cache import DEFAULT_ENTRIES, ResultCache
from overlapviz.lab.credentials import load_credentials
from overlapviz.lab.devices import offered_devices
from overlapviz.lab.dispatchers import dispatcher_for
from overlapviz.lab.http_app import Lab, make_app
from overlapviz.lab.limits import Limits

SHUTDOWN_GRACE_S = 5.0


@dataclass(frozen=True, slots=True)
class ServeOptions:
    """What ``overlapviz serve`` was asked for."""

    backend: str = "auto"
    devices: list[str] | None = None
    host: str = "0.0.0.0"
    port: int = 8470
    token_file: Path | None = None
    tls_cert: Path | None = None
    tls_key: Path | None = None
    queue_url: str | None = None
    limits: Limits = field(default_factory=Limits)
    cache_entries: int = DEFAULT_ENTRIES  # 0: every request runs afresh


def serve(options: ServeOptions) -> int:
    """Run the server until it is stopped; 0 when stopped by Ctrl+C or SIGTERM."""
    return asyncio.run(_serve(options))


async def _serve(options: ServeOptions) -> int:
    credentials = load_credentials(options.token_file)
    tls = tls_context(options.tls_cert, options.tls_key)
    backend, devices = offered_devices(options.backend, options.devices)
    dispatcher = dispatcher_for(options.queue_url, devices, options.limits.run_limit_s)
    lab = Lab(credentials, dispatcher, options.limits, cache=ResultCache(options.cache_entries))
    try:
        await dispatcher.start()
        await _serve_http(lab, options, tls, backend)
    finally:
        await dispatcher.close()
    return 0


async def _serve_http(lab: Lab, options: ServeOptions, tls: ssl.SSLContext | None, backend: str) -> None:
    runner = web.AppRunner(make_app(lab), handle_signals=False, access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, options.host, options.port, ssl_context=tls, shutdown_timeout=SHUTDOWN_GRACE_S)
        await site.start()
        lab.url = public_url(runner, options.host, tls is not None)
        _announce(lab, backend)
        await _until_stopped()
    finally:
        lab.followers.close()
        await runner.cleanup()


def _announce(lab: Lab, backend: str) -> None:
    lines = [
        f"url: {lab.url}",
        f"class token: {lab.credentials.class_token}",
        f"join code: {lab.credentials.join_code}",
        f"instructor token: {lab.credentials.instructor_token}",
        f"backend: {backend}",
        f"devices: {', '.join(device.key for device in lab.dispatcher.devices)}",
        "ready",
    ]
    print("\n".join(lines), flush=True)


async def _until_stopped() -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    await stop.wait()
    print("stopping", file=sys.stderr, flush=True)


def tls_context(cert: Path | None, key: Path | None) -> ssl.SSLContext | None:
    """The TLS context for ``--tls-cert``/``--tls-key``; None for plain HTTP.

    Raises
    ------
    ValueError
        Only one of the two is given, or they cannot be loaded.
    """
    if cert is None and key is None:
        return None
    if cert is None or key is None:
        raise ValueError(_("--tls-cert and --tls-key go together: give both, or neither"))
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(cert, key)
    except (OSError, ssl.SSLError) as error:
        message = _("--tls-cert {cert} --tls-key {key}: cannot be loaded ({error})")
        raise ValueError(message.format(cert=cert, key=key, error=error)) from None
    return context


def public_url(runner: web.AppRunner, host: str, tls: bool) -> str:
    """The URL learners use: the real port, and this machine's address when listening on every interface."""
    port = runner.addresses[0][1]
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"{'https' if tls else 'http'}://{shown}:{port}"


def lan_address() -> str:
    """The address of this machine on its network (the one a route outwards would use), else its host name."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address: nothing is sent
            address: str = probe.getsockname()[0]
            return address
        except OSError:
            return socket.gethostname()
