"""What a profile knows of the link between two GPUs of one host: the ``[peer]`` section.

A profile with it models two of its GPUs joined by NVLink (``nvlink_gbps`` each way, and a
fixed cost per peer copy); one without it runs one GPU only, and says so when asked for two.
With peer access off the driver stages a peer copy through host memory, so it costs what a
pinned D2H on the first GPU and a pinned H2D on the second cost one after the other: those
rates are the profile's own link rates, and nothing more is needed here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

SECTION = "peer"


class PeerLinkError(ValueError):
    """The [peer] section is incomplete or holds a bad value; the message says which."""


@dataclass(frozen=True, slots=True)
class PeerLink:
    """The NVLink between two GPUs of the profile, per direction."""

    nvlink_gbps: float  # a peer copy's rate with peer access on, 1e9 bytes/s each way
    peer_latency_us: float  # fixed cost of each peer copy on the copy engines


def peer_link_from(section: Mapping[str, Any], label: str, check: Callable[[str, str, Any], str]) -> PeerLink:
    """Build `PeerLink` from a profile's [peer] table; `check` is the profile's value check.

    Raises
    ------
    PeerLinkError
        A field is missing, unknown or has a bad value.
    """
    wanted = {f.name for f in fields(PeerLink)}
    missing, unknown = sorted(wanted - set(section)), sorted(set(section) - wanted)
    if missing or unknown:
        raise PeerLinkError(f"{label}: [{SECTION}] missing {missing or 'nothing'}, unknown {unknown or 'nothing'}")
    for item in fields(PeerLink):
        problem = check(item.name, str(item.type), section[item.name])
        if problem:
            raise PeerLinkError(f"{label}: {item.name} {problem}")
    return PeerLink(**dict(section))


def missing_peer_message(profile_key: str) -> str:
    """Why a profile without [peer] cannot run two GPUs."""
    return (
        f"the {profile_key} profile models one GPU: it has no [peer] section (NVLink rate and peer copy cost)"
        " for two; use --device h200x2-nvlink"
    )
