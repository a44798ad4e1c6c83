"""The finding about copies from one GPU to another: peer copies that set the pace of the run.

A peer copy (``memcpy PtoP``) runs on the GPU it copies from. Over NVLink it runs many times
faster than a copy to or from the host; staged through host memory, as the driver does with
peer access off, it crosses the host's links twice and runs at about half a host copy's rate.
"""

from __future__ import annotations

import math
from functools import reduce

import numpy as np

from overlapviz.core.analysis.metrics import Metrics, covered_total_ns, direction_bandwidth_gbps
from overlapviz.core.analysis.program_kind import Advice
from overlapviz.core.findings.callout import Callout, CalloutContext, Rows, share, spanning
from overlapviz.core.findings.finding import Finding, ms_text, pct_text, rows_of
from overlapviz.core.findings.rule import Rule
from overlapviz.core.i18n import N_, _
from overlapviz.core.number_text import rate_text
from overlapviz.core.trace.lanes import LaneGroup
from overlapviz.core.trace.spans import OpKind, Trace

# Peer copies limit a run when their time clearly exceeds every other stage's, as
# `pipeline.BOUND_RATIO` asks of the copies and kernels.
PEER_BOUND_RATIO = 1.2
# A peer copy at under three quarters of the rate of the same GPU's host copies is no faster
# than a path through the host: staged, it runs at about half.
THROUGH_HOST_RATE = 0.75
_PEER_ACCESS_ADVICE = Advice(
    cuda=N_("cudaDeviceCanAccessPeer says whether the GPUs can reach each other directly; cudaDeviceEnablePeerAccess"
    " turns it on."),
    python=N_("torch.cuda.can_device_access_peer(a, b) says whether the GPUs can reach each other directly (PyTorch"
    " turns peer access on by itself where they can); where they cannot, the bytes go through the host."),
)


def peer_covered_ns(trace: Trace) -> int:
    """Time during which at least one peer copy ran (copies side by side count once)."""
    return covered_total_ns(trace, OpKind.PEER)


def peers_lead(trace: Trace, metrics: Metrics) -> bool:
    """Whether the peer copies, not the copies to and from the host or the kernels, set the pace."""
    others_summed = max(metrics.busy_ns["h2d"], metrics.busy_ns["d2h"], metrics.busy_ns["kernel"])
    # covered against summed, as the message prints them: kernels side by side count twice, peers once
    return peer_covered_ns(trace) >= PEER_BOUND_RATIO * others_summed


def peer_bound(trace: Trace, metrics: Metrics) -> list[Finding]:
    """Find peer copies busy longer than any other stage: the link between the GPUs sets the pace."""
    rows = np.flatnonzero(trace.mask(OpKind.PEER) & (trace["bytes"] > 0))
    if rows.size == 0 or not peers_lead(trace, metrics):
        return []
    covered, makespan = peer_covered_ns(trace), metrics.makespan_ns
    rate = direction_bandwidth_gbps(trace, OpKind.PEER) or 0.0
    routes = sorted({int(device) for device in trace["device"][rows]})
    source = reduce(_and, [_("GPU {gpu}").format(gpu=device) for device in routes])
    copies = max(metrics.busy_ns["h2d"], metrics.busy_ns["d2h"])
    message = _(
        "Peer copies limit this run: the copies from {source} to another GPU ran {share} of it ({covered} of"
        " {makespan}) at {rate}, against {copies} for the busiest host copy direction and {kernels} for the kernels."
    ).format(
        source=source, share=pct_text(covered, makespan), covered=ms_text(covered), makespan=ms_text(makespan),
        rate=rate_text(rate), copies=ms_text(copies), kernels=ms_text(metrics.busy_ns["kernel"]),
    )  # fmt: skip
    host = max((gbps for gbps in (metrics.bandwidth_gbps["h2d"], metrics.bandwidth_gbps["d2h"]) if gbps), default=0.0)
    if host > 0 and rate < THROUGH_HOST_RATE * host:
        message += " " + _(
            "That is slower than this GPU's own copies to and from the host ({rate}): a peer copy staged through host"
            " memory, as the driver does when peer access is off, crosses the host's links twice. {advice}"
        ).format(rate=rate_text(host), advice=_PEER_ACCESS_ADVICE.words(trace))
    else:
        message += " " + _("Faster kernels or host copies would not shorten it; fewer bytes between the GPUs would.")
    return [Finding("peer-bound", message, rows_of(rows))]


def peer_bound_callout(c: CalloutContext, finding: Finding, rows: Rows) -> list[Callout]:
    """How much of the run the peer copies ran and at what rate, bracketing them."""
    covered = covered_total_ns(c.trace, OpKind.PEER)
    rate = direction_bandwidth_gbps(c.trace, OpKind.PEER) or 0.0
    of_run = share(covered, c.metrics.makespan_ns)
    text = _("peer-bound: copies between the GPUs ran {share} of the run, at {rate}").format(
        share=of_run, rate=_rate_words(rate)
    )
    return [spanning(c, finding, rows, LaneGroup.HARDWARE, text)]


def _and(first: str, last: str) -> str:
    return _("{first} and {last}").format(first=first, last=last)


def _rate_words(gbps: float) -> str:
    """``55.4 GB/s``; a dash for a rate that cannot be measured (as the metrics panel writes it)."""
    return "\u2014" if math.isnan(gbps) else rate_text(gbps)


PEER_BOUND = Rule(
    code="peer-bound",
    detect=peer_bound,
    callout=peer_bound_callout,
    fires_when=(
        "The peer copies (`memcpy PtoP`, from one GPU to another) ran at least 1.2× as long as the busier "
        "host copy direction and as the kernels: the link between the GPUs sets the pace. The sentence gives "
        "their time and rate; when that rate is under three quarters of the same GPU's host copies' it adds "
        "that a peer copy staged through host memory, as the driver does with peer access off, crosses the "
        "host's links twice, and names `cudaDeviceCanAccessPeer` and `cudaDeviceEnablePeerAccess`. "
        "`kernel-bound` and `copy-bound` then stay silent."
    ),
    points_at="the peer copies",
)
