"""``overlapviz serve``: the lab server, learners' laptops driving this machine's GPUs (or the model).

`add_serve` builds the parser; `serve_command` turns the flags into `lab.server.ServeOptions`
and runs the server until Ctrl+C or SIGTERM. docs/lab.md is the instructor's guide.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from overlapviz.backends import registry
from overlapviz.commands.errors import UsageError
from overlapviz.core.i18n import _
from overlapviz.lab.cache import DEFAULT_ENTRIES
from overlapviz.lab.credentials import CredentialsError
from overlapviz.lab.devices import DeviceChoiceError
from overlapviz.lab.dispatchers import QueueUnavailable
from overlapviz.lab.job import JobFailed
from overlapviz.lab.limits import Limits

if TYPE_CHECKING:
    from overlapviz.lab.server import ServeOptions

DEFAULT_PORT = 8470
_LIMITS = Limits()


def add_serve(commands: Any) -> None:
    """Add ``overlapviz serve``."""
    parser = commands.add_parser(
        "serve",
        help=_("serve this machine's GPUs (or the model) to a class over HTTP"),
        description=_("Serve runs to a class: each learner's laptop sends a pipeline's settings and gets the run's "
        "report (and trace) back, one run per device at a time, learners taken in turn. Prints the URL, the class "
        "token, its join code and the instructor token, then serves until Ctrl+C. See docs/lab.md."),
    )
    parser.set_defaults(command=serve_command)
    parser.add_argument("--backend", choices=("auto", *registry.BACKEND_NAMES), default="auto",
                        help=_("default: auto (the real GPU if usable, else the model)"))
    parser.add_argument("--devices", metavar="LIST", help=_("device keys or places, comma-separated (default: all)"))
    parser.add_argument("--host", default="0.0.0.0", help=_("address to listen on (default: every interface)"))
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=_("default: {port}; 0 picks a free one").format(port=DEFAULT_PORT))
    parser.add_argument("--token-file", type=Path, metavar="FILE",
                        help=_("keep the class token in FILE (made, mode 0600, when"
                               " missing) so it lasts across starts"))
    parser.add_argument("--tls-cert", type=Path, metavar="CERT.pem", help=_("serve HTTPS with this certificate"))
    parser.add_argument("--tls-key", type=Path, metavar="KEY.pem", help=_("the certificate's private key"))
    parser.add_argument("--queue", metavar="URL", help=_("take jobs through a shared queue (default: run them here)"))
    parser.add_argument("--no-cache", action="store_true",
                        help=_("run every request afresh, even settings run before (to see the GPU's own spread)"))
    limits = parser.add_argument_group(_("limits per learner"))
    limits.add_argument("--max-queued", type=int, default=_LIMITS.max_queued, metavar="N",
                        help=_("runs one learner may have waiting or running (default: {default})").format(
                            default=_LIMITS.max_queued))
    limits.add_argument("--rate", type=float, default=_LIMITS.rate_per_s, metavar="PER_S",
                        help=_("runs a second one learner may ask for on average (default: {default})").format(
                            default=f"{_LIMITS.rate_per_s:g}"))
    limits.add_argument("--run-limit", type=float, default=_LIMITS.run_limit_s, metavar="SECONDS",
                        help=_("longest one run may take; then it is stopped (default: {default})").format(
                            default=f"{_LIMITS.run_limit_s:g}"))


def serve_command(args: argparse.Namespace) -> int:
    """Run the lab server until Ctrl+C or SIGTERM."""
    from overlapviz.lab.server import serve  # aiohttp loads only for the server, not for every command

    try:
        return serve(options_of(args))
    except (CredentialsError, DeviceChoiceError, QueueUnavailable, JobFailed) as error:
        raise UsageError(str(error)) from None
    except ValueError as error:  # TLS files that cannot be loaded
        raise UsageError(str(error)) from None
    except OSError as error:  # the port is taken, the address is not this machine's
        message = _("cannot listen on {host}:{port} ({error})")
        raise UsageError(message.format(host=args.host, port=args.port, error=error.strerror or error)) from None


def options_of(args: argparse.Namespace) -> ServeOptions:
    """The server's options from the flags (UsageError for values out of range)."""
    from overlapviz.lab.server import ServeOptions

    if not 0 <= args.port <= 65535:
        raise UsageError(_("--port: {port} is not a port (0 to 65535; 0 picks a free one)").format(port=args.port))
    if args.max_queued < 1 or not args.rate > 0 or not args.run_limit > 0:
        raise UsageError(_("--max-queued, --rate and --run-limit must be above 0"))
    limits = Limits(max_queued=args.max_queued, rate_per_s=args.rate, run_limit_s=args.run_limit)
    devices = [item.strip() for item in args.devices.split(",") if item.strip()] if args.devices else None
    return ServeOptions(
        backend=args.backend, devices=devices, host=args.host, port=args.port, token_file=args.token_file,
        tls_cert=args.tls_cert, tls_key=args.tls_key, queue_url=args.queue, limits=limits,
        cache_entries=0 if args.no_cache else DEFAULT_ENTRIES,
    )  # fmt: skip
