"""The host calls a program of two GPUs makes besides the ones that issue its ops.

- ``cudaSetDevice`` before an op of another GPU than the op issued before it (GPU 0 is current
  to begin with), so a run in depth order switches twice per chunk and one in breadth order
  twice in all;
- ``cudaEventRecord`` right after each op that an op of another stream waits for (the peer
  copies: GPU 1's stream cannot see GPU 0's);
- ``cudaStreamWaitEvent`` before each op that waits for such an event (GPU 1's first op of a
  chunk, the plan's ``after`` column), once the device is set.

Each costs the host its ``[peer]`` time and belongs to the GPU it acts on. A run of one GPU
makes none of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from overlapviz.backends.sim.op_table import Op
from overlapviz.backends.sim.peer_link import PeerLink

SET_DEVICE, EVENT_RECORD, STREAM_WAIT_EVENT = "cudaSetDevice", "cudaEventRecord", "cudaStreamWaitEvent"


class DeviceCall(NamedTuple):
    """One host call that issues no op: its name, its host time and the GPU it acts on."""

    name: str
    ns: float
    device: int


Calls = tuple[DeviceCall, ...]


def device_calls(ops: Sequence[Op], peer: PeerLink) -> tuple[list[Calls], list[Calls]]:
    """(calls before, calls after) the call that issues each op, in the host's order.

    Host copies are the host's own work: they set no device and wait for no event.
    """
    set_ns, record_ns, wait_ns = (us * 1e3 for us in (peer.set_device_us, peer.event_record_us,
                                                       peer.stream_wait_event_us))  # fmt: skip
    waited = {op.after for op in ops if op.after >= 0}
    before: list[Calls] = []
    after: list[Calls] = []
    current = 0
    for i, op in enumerate(ops):
        calls: list[DeviceCall] = []
        if op.stream >= 0 and op.device != current:
            calls.append(DeviceCall(SET_DEVICE, set_ns, op.device))
            current = op.device
        if op.after >= 0:
            calls.append(DeviceCall(STREAM_WAIT_EVENT, wait_ns, op.device))
        before.append(tuple(calls))
        after.append((DeviceCall(EVENT_RECORD, record_ns, op.device),) if i in waited else ())
    return before, after
