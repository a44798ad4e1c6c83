"""Which PCIe links each copy of a two-GPU run crosses, and the share of its rate it gets on them.

Each GPU has a PCIe link of its own: to the CPU, or, where the profile's ``[peer]`` says
``shared_host_link``, to a PCIe switch whose one upstream link to the CPU carries the host
copies of both GPUs. A link carries its two directions apart, so each direction of a link is
one thing copies share:

- an H2D of GPU *g* crosses *g*'s link toward the GPU (and, under a switch, the upstream link
  toward the GPUs); a D2H the same links toward the host;
- a peer copy over PCIe (no NVLink, peer access on) leaves its GPU over that GPU's link toward
  the host and reaches the other GPU over the other's link toward it; under a switch it turns
  there and never reaches the upstream link;
- a peer copy over NVLink crosses no PCIe link; nor does a staged one (peer access off) in the
  model, which draws it as one span (docs/model.md, "Two GPUs", says why and what it misses).

A copy runs at the smallest of its shares of the link directions it crosses: 1/n where n copies
cross that direction at once, times ``bidirectional_factor`` while the other direction of the
same link carries a copy too, as on one GPU's link. Without a switch and with NVLink this is
what one GPU does, once per GPU.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from overlapviz.backends.sim.op_table import Op
from overlapviz.core.trace.spans import OpKind

TO_GPU, TO_HOST = 0, 1  # the two directions of a link: a crossing is 2 x link + direction


def link_paths(ops: Sequence[Op], *, shared_host_link: bool, peer_over_pcie: bool) -> list[tuple[int, ...]]:
    """For each op, the link directions it crosses while it runs (none for kernels and host copies).

    Links 0 and 1 are the GPUs' own; link 2 is the switch's upstream link (only with
    `shared_host_link`). `peer_over_pcie`: peer copies go GPU to GPU over PCIe.
    """
    upstream = 2  # the model runs two GPUs (the config refuses more)
    paths: list[tuple[int, ...]] = []
    for op in ops:
        if op.kind is OpKind.H2D or op.kind is OpKind.D2H:
            direction = TO_GPU if op.kind is OpKind.H2D else TO_HOST
            own = _crossing(op.device, direction)
            paths.append((own, _crossing(upstream, direction)) if shared_host_link else (own,))
        elif op.kind is OpKind.PEER and peer_over_pcie:
            paths.append((_crossing(op.device, TO_HOST), _crossing(1 - op.device, TO_GPU)))
        else:
            paths.append(())
    return paths


def copy_shares(
    running: Iterable[int], paths: Sequence[tuple[int, ...]], bidirectional_factor: float
) -> dict[int, float]:
    """Each running copy's share of its rate alone, from the link directions the running copies cross."""
    running = list(running)
    users: dict[int, int] = {}
    for i in running:
        for crossing in paths[i]:
            users[crossing] = users.get(crossing, 0) + 1
    shares: dict[int, float] = {}
    for i in running:
        share = 1.0
        for crossing in paths[i]:
            on_link = 1.0 / users[crossing]
            if crossing ^ 1 in users:  # the same link's other direction is busy too
                on_link *= bidirectional_factor
            share = min(share, on_link)
        shares[i] = share
    return shares


def _crossing(link: int, direction: int) -> int:
    return 2 * link + direction
