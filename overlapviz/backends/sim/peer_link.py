"""What a profile knows of the link between two GPUs of one host: the ``[peer]`` section.

A profile with it models two of its GPUs; one without it runs one GPU only, and says so when
asked for two. The section says how the two are joined and what the host's calls that only
two GPUs make cost:

- ``nvlink_links`` NVLink links of ``nvlink_link_gbps`` each way join them; with peer access
  on a peer copy crosses all of them at once. With no NVLink (``nvlink_links = 0``) it goes
  GPU to GPU over PCIe (P2P) at ``pcie_p2p_gbps``, on the same links that carry the host's
  copies (`overlapviz.backends.sim.host_links`). Each rate is read only where it applies.
- ``shared_host_link``: both GPUs sit under one PCIe switch, so their host copies share its
  one upstream link to the CPU.
- With peer access off the driver stages a peer copy through host memory, so it costs what a
  pinned D2H on the first GPU and a pinned H2D on the second cost one after the other: those
  rates are the profile's own link rates, and nothing more is needed here.
- ``set_device_us``, ``event_record_us``, ``stream_wait_event_us``: host time in
  ``cudaSetDevice`` (the program switching GPUs between calls), ``cudaEventRecord`` (after a
  peer copy) and ``cudaStreamWaitEvent`` (GPU 1's stream waiting for that event).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

SECTION = "peer"
_RATES = ("nvlink_link_gbps", "pcie_p2p_gbps")  # each needed only by one kind of link (see `PeerLink`)


class PeerLinkError(ValueError):
    """The [peer] section is incomplete or holds a bad value; the message says which."""


@dataclass(frozen=True, slots=True)
class PeerLink:
    """The link between two GPUs of the profile, per direction, and the host calls of two GPUs."""

    nvlink_links: int  # NVLink links joining the two GPUs; 0: none, peer copies cross PCIe
    peer_latency_us: float  # fixed cost of each peer copy on the copy engines
    shared_host_link: bool  # both GPUs reach the host through one PCIe switch's upstream link
    set_device_us: float  # host time inside cudaSetDevice
    event_record_us: float  # host time inside cudaEventRecord
    stream_wait_event_us: float  # host time inside cudaStreamWaitEvent
    nvlink_link_gbps: float | None = None  # one link's rate, 1e9 bytes/s each way; needed with NVLink
    pcie_p2p_gbps: float | None = None  # a peer copy's rate over PCIe, 1e9 bytes/s; needed without NVLink

    @property
    def nvlink(self) -> bool:
        """Whether NVLink joins the two GPUs (else peer copies cross PCIe)."""
        return self.nvlink_links > 0

    @property
    def nvlink_gbps(self) -> float:
        """The NVLink's rate each way: every link at once (0 without NVLink)."""
        return self.nvlink_links * (self.nvlink_link_gbps or 0.0)

    @property
    def direct_gbps(self) -> float:
        """A peer copy's rate with peer access on: over NVLink where there is one, else PCIe P2P."""
        if self.nvlink:
            return self.nvlink_gbps
        if self.pcie_p2p_gbps is None:  # `peer_link_from` refuses such a profile
            raise ValueError("no NVLink and no pcie_p2p_gbps: a peer copy has no rate")
        return self.pcie_p2p_gbps

    def facts(self) -> dict[str, Any]:
        """The link's facts for traces and `overlapviz devices`."""
        rate = {"nvlink_gbps": self.nvlink_gbps} if self.nvlink else {"pcie_p2p_gbps": self.direct_gbps}
        return {"nvlink_links": self.nvlink_links, **rate, "shared_host_link": self.shared_host_link}


def peer_link_from(section: Mapping[str, Any], label: str, check: Callable[[str, str, Any], str]) -> PeerLink:
    """Build `PeerLink` from a profile's [peer] table; `check` is the profile's value check.

    A rate the profile's kind of link does not use may be there (a what-if profile based on
    another keeps the other's); it is checked like the rest and not used.

    Raises
    ------
    PeerLinkError
        A field is missing, unknown or has a bad value, or the rate of the profile's kind of
        link is missing.
    """
    every = {f.name for f in fields(PeerLink)}
    wanted = every - set(_RATES)
    missing, unknown = sorted(wanted - set(section)), sorted(set(section) - every)
    if missing or unknown:
        raise PeerLinkError(f"{label}: [{SECTION}] missing {missing or 'nothing'}, unknown {unknown or 'nothing'}")
    for item in fields(PeerLink):
        if item.name not in section:
            continue
        annotation = "float" if item.name in _RATES else str(item.type)
        problem = check(item.name, annotation, section[item.name])
        if problem:
            raise PeerLinkError(f"{label}: {item.name} {problem}")
    links = section["nvlink_links"]
    if links > 0 and "nvlink_link_gbps" not in section:
        raise PeerLinkError(
            f"{label}: [{SECTION}] nvlink_links = {links} needs nvlink_link_gbps, the rate of one link each way"
        )
    if links == 0 and "pcie_p2p_gbps" not in section:
        raise PeerLinkError(
            f"{label}: [{SECTION}] nvlink_links = 0 (no NVLink) needs pcie_p2p_gbps: peer copies then cross PCIe"
        )
    return PeerLink(**dict(section))


def missing_peer_message(profile_key: str) -> str:
    """Why a profile without [peer] cannot run two GPUs."""
    return (
        f"the {profile_key} profile models one GPU: it has no [peer] section (the link between two GPUs and the"
        " costs of their host calls); use --device h200x2-nvlink, h200x2-pcie or h200x2-pcie-switch"
    )
