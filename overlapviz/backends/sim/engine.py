"""The event-driven GPU model: a host thread, streams, work queues, engines and the SMs.

What it models, and why each piece is there (see docs/model.md):
- The host thread issues ops one by one; each call costs host time. A pageable copy keeps
  the host in the call until the copy is done, so nothing after it is even issued.
- Streams are FIFO: an op becomes *ready* when the op before it in its stream has finished
  and its completion has been signalled.
- Work queues carry ops from the host to the engines in issue order. With Hyper-Q each
  stream has a queue of its own (streams beyond the count share one); before Kepler each
  engine had one queue for all streams. Either way an op that is not ready holds up every op
  behind it in its queue: a false dependency.
- Copy engines run one copy at a time. With one engine both directions share it. While both
  directions copy at once each runs at `bidirectional_factor` of its bandwidth.
- Kernels from different streams share the SMs: one starts only when its blocks fit beside
  the kernels already running, so kernels that fill the GPU run one after the other.
- Fermi signals the completion of kernels issued back to back on different streams only when
  all of them are done.
- Host calls that issue nothing (allocating host buffers before the first op, freeing them
  after the final synchronize) occupy the host thread for their cost.
- A host copy (a staging ring's memcpy) is work of the host thread itself, in issue order;
  one that empties a slot first waits (an event synchronize) for the D2H that filled it.
- Where the profile says so, the driver carries out one managed prefetch at a time, whichever
  its direction: the prefetches share one migration engine, though each is drawn on the copy
  engine of its direction.
- With two GPUs each has its own copy engines, SMs and queues, and its own link to the host;
  copies share the PCIe links they cross (`host_links`: a GPU's own link both ways, a PCIe
  switch's upstream link where the profile has one, a peer copy's PCIe path without NVLink).
  A peer copy holds the copy engines that carry copies from GPU 0 to GPU 1 (one at a time);
  GPU 1's stream waits for it through an event. The host also switches devices, records that
  event and has GPU 1's stream wait for it (`device_calls`).
- Issued as a CUDA Graph, the ops go out in one cudaGraphLaunch call that costs the host a
  measured time per op, each op reaching its queue as the launch gets to it.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.backends.sim.device_calls import Calls, DeviceCall, device_calls
from overlapviz.backends.sim.host_links import copy_shares, link_paths
from overlapviz.backends.sim.ops import Op
from overlapviz.backends.sim.profile import DeviceProfile
from overlapviz.core.trace import OpKind, Unit

_COMPLETE, _SIGNAL, _EVENT = 0, 1, 2  # _EVENT: an op of another stream this one waits for has ended
_COMPUTE = int(Unit.COMPUTE)
_MIGRATIONS = max(int(unit) for unit in Unit) + 1  # the engine of prefetches done one at a time
_ENGINES_PER_GPU = _MIGRATIONS + 1  # GPU g's engine for unit u is g * _ENGINES_PER_GPU + u
_NO_QUEUE = -1  # host copies reach no hardware queue
_FULL = 1.0 + 1e-9  # occupancy sums up to this fit on the GPU (rounding slack)
_CANCEL_CHECK_EVERY = 2048
_PER_OP_LISTS = (
    "enqueue", "submitted", "ready", "signalled", "start", "end", "_version", "_successor", "_queue_of",
    "_unit", "_call_ns", "_call_name", "_kernel_batch", "_queues", "_call_name_of", "_call_start", "_call_end",
    "_call_op", "_call_device", "_stream_reached", "_on_host", "_signals_left", "_device", "_paths", "_lead_ns",
    "_calls_before", "_calls_after",
)  # fmt: skip
_NOT_YET = -1.0  # no time yet (the model's times are never negative)
_PIECE = 16_384  # list items freed or converted at a time: a few ms on a 2-core machine


@dataclass(frozen=True, slots=True)
class HostCalls:
    """The API calls of the host thread, in order, as columns."""

    names: tuple[str, ...]  # the distinct names; `name` indexes them
    name: npt.NDArray[np.int64]
    start_ns: npt.NDArray[np.float64]
    end_ns: npt.NDArray[np.float64]
    op: npt.NDArray[np.int64]  # index of the op each issued; -1 for none
    device: npt.NDArray[np.int64]  # the GPU each acts on (that of the op it issued); -1 for every GPU

    def __len__(self) -> int:
        return len(self.name)


@dataclass(slots=True)
class Timeline:
    """When every op was issued, became ready, started and ended (one array entry per op), and what the host did.

    Columns, not objects: a run of 65,536 chunks has 2 x 10^5 ops and as many host calls,
    and freeing that many Python objects at once holds Python's lock for tens of ms.
    """

    enqueue_ns: npt.NDArray[np.float64]
    ready_ns: npt.NDArray[np.float64]
    start_ns: npt.NDArray[np.float64]
    end_ns: npt.NDArray[np.float64]
    host_calls: HostCalls


class _Engine:
    """A copy engine, or the SMs (capacity shared by occupancy)."""

    __slots__ = ("busy", "last_queue", "pending", "running")

    def __init__(self) -> None:
        self.pending: list[int] = []  # ops handed over by their queue, waiting for this engine
        self.running: list[int] = []
        self.busy = 0.0  # occupancy in use (copy engines: 0 or 1)
        self.last_queue = -1  # the queue that last started an op here (Hyper-Q keeps serving it)


class GpuModel:
    """Runs one pipeline's ops on one device profile."""

    def __init__(
        self,
        profile: DeviceProfile,
        ops: list[Op],
        host_before: Sequence[tuple[str, float]] = (),
        host_after: Sequence[tuple[str, float]] = (),
        graph_op_ns: float | None = None,
        *,
        peer_access: bool = True,
    ) -> None:
        """Prepare to run `ops`; `host_before`/`host_after` are (name, ns) host calls around them.

        `graph_op_ns`, when given, issues every op in one cudaGraphLaunch at that host cost per op.
        `peer_access` says whether peer copies go straight to the other GPU (else the driver
        stages them through the host: one span that crosses no link in the model).
        """
        self.profile = profile
        self.ops = ops
        n = len(ops)
        self.enqueue = [0.0] * n
        self.submitted = [False] * n
        self.ready = [0.0] * n
        # What each op waits for before it may go: the op before it in its stream (none for the
        # first of a stream) and an op of another stream (an event), where it has one.
        firsts = _first_in_stream(ops)
        self._signals_left = [int(not first) + int(op.after >= 0) for first, op in zip(firsts, ops, strict=True)]
        self.signalled = [left == 0 for left in self._signals_left]
        self._dependents: dict[int, list[int]] = {}  # op -> the ops of other streams waiting for it
        for i, op in enumerate(ops):
            if op.after >= 0:
                self._dependents.setdefault(op.after, []).append(i)
        self._device = [op.device for op in ops]
        self._several_gpus = any(self._device)
        peer = profile.peer
        self._paths = (  # the PCIe link directions each copy crosses (two GPUs only)
            link_paths(ops, shared_host_link=peer is not None and peer.shared_host_link,
                       peer_over_pcie=peer_access and peer is not None and not peer.nvlink)
            if self._several_gpus else []
        )  # fmt: skip
        self.start = [-1.0] * n
        self.end = [-1.0] * n
        # The host's calls, one list per column (see `_host_calls`).
        self._call_names: dict[str, int] = {}
        self._call_name_of: list[int] = []
        self._call_start: list[float] = []
        self._call_end: list[float] = []
        self._call_op: list[int] = []
        self._call_device: list[int] = []
        self._events: list[tuple[float, int, int, int, int]] = []  # (time, seq, kind, op, version)
        self._seq = 0
        self._version = [0] * n
        self._successor = _stream_successors(ops)
        self._queue_of, self._queues = _work_queues(ops, profile)
        self._queue_pos = [0] * len(self._queues)
        # Indexed by int(Unit): enum members hash through Python code, too slow for this loop.
        one_migration = profile.host_kinds is not None and profile.host_kinds.migrations_one_at_a_time
        self._unit = [_MIGRATIONS if one_migration and op.kind is OpKind.PREFETCH else int(op.unit) for op in ops]
        if self._several_gpus:
            self._unit = [op.device * _ENGINES_PER_GPU + unit for op, unit in zip(ops, self._unit, strict=True)]
        self._engines = [_Engine() for _ in range(_ENGINES_PER_GPU * (1 + max(self._device, default=0)))]
        self._copy_rate: dict[int, tuple[float, float, float]] = {}  # op -> (rate, work left, since)
        self._kernel_batch, self._batch_left = _kernel_batches(ops, profile.delayed_kernel_signal)
        self._batch_done: dict[int, list[int]] = {}
        self._stream_reached = [_NOT_YET] * n  # when the op before each in its stream ended
        self._call_ns, self._call_name = self._calls_of(ops, profile)
        self._on_host = [op.kind is OpKind.HOST_COPY for op in ops]
        self._gap_ns = profile.issue_gap_us * 1e3
        self._graph = graph_op_ns is not None
        if graph_op_ns is not None:  # one call issues them all: no caller's code between ops
            self._call_ns, self._gap_ns = [graph_op_ns] * n, 0.0
        # Host calls of two GPUs that issue no op, before and after each op's own call; the
        # host's step for an op (it reaching its queue) comes `_lead_ns` after the first of them.
        self._calls_before: list[Calls] = []
        self._calls_after: list[Calls] = []
        self._lead_ns = self._call_ns
        if self._several_gpus and peer is not None and graph_op_ns is None:
            self._calls_before, self._calls_after = device_calls(ops, peer)
            self._lead_ns = [
                sum(call.ns + self._gap_ns for call in calls) + ns
                for calls, ns in zip(self._calls_before, self._call_ns, strict=True)
            ]
        self._graph_begin = 0.0
        self._host_next = 0
        self._host_time = 0.0
        self._host_waiting_for = -1
        self._host_after = host_after
        for name, ns in host_before:
            self._host_call(name, ns)

    def _host_call(self, name: str, ns: float) -> None:
        """The host spends `ns` in a call that issues no device op."""
        self._add_call(self._call_name_index(name), self._host_time, self._host_time + ns, -1)
        self._host_time += ns

    def _device_calls(self, calls: Calls) -> None:
        """The host makes calls of two GPUs that issue no op, the caller's code after each."""
        for call in calls:
            self._device_call(call)

    def _device_call(self, call: DeviceCall) -> None:
        begin = self._host_time
        self._add_call(self._call_name_index(call.name), begin, begin + call.ns, -1, call.device)
        self._host_time = begin + call.ns + self._gap_ns

    def _calls_of(self, ops: list[Op], profile: DeviceProfile) -> tuple[list[float], list[int]]:
        """Host time and name of the call that issues each op (a host copy: the copy itself)."""
        launch_ns, memcpy_ns = profile.launch_call_us * 1e3, profile.memcpy_call_us * 1e3
        kinds = profile.host_kinds
        prefetch_ns = memcpy_ns if kinds is None else kinds.prefetch_call_us * 1e3
        launch, memcpy = self._call_name_index("cuLaunchKernel"), self._call_name_index("cudaMemcpyAsync")
        prefetches = any(op.kind is OpKind.PREFETCH for op in ops)  # a name only for calls the run makes
        prefetch = self._call_name_index("cudaMemPrefetchAsync") if prefetches else -1
        peers = any(op.kind is OpKind.PEER for op in ops)
        peer = self._call_name_index("cudaMemcpyPeerAsync") if peers else -1
        call_ns: list[float] = []
        call_name: list[int] = []
        for op in ops:  # `is` on the members: hashing an enum member runs Python code, slow at 10^5 ops
            kind = op.kind
            if kind is OpKind.KERNEL:
                call_ns.append(launch_ns)
                call_name.append(launch)
            elif kind is OpKind.PREFETCH:
                call_ns.append(prefetch_ns)
                call_name.append(prefetch)
            elif kind is OpKind.PEER:  # not measured: costed as the pinned cudaMemcpyAsync it resembles
                call_ns.append(memcpy_ns)
                call_name.append(peer)
            else:
                call_ns.append(op.work_ns if kind is OpKind.HOST_COPY else memcpy_ns)
                call_name.append(memcpy)
        return call_ns, call_name

    def _call_name_index(self, name: str) -> int:
        return self._call_names.setdefault(name, len(self._call_names))

    def _add_call(self, name: int, start_ns: float, end_ns: float, op: int, device: int = -1) -> None:
        """Record a host call; one that issued an op acts on that op's GPU."""
        self._call_name_of.append(name)
        self._call_start.append(start_ns)
        self._call_end.append(end_ns)
        self._call_op.append(op)
        self._call_device.append(self._device[op] if op >= 0 else device)

    def run(self, should_stop: Callable[[], bool] | None = None) -> Timeline:
        """Simulate until every op has finished (`InterruptedError` when `should_stop` says so on the way)."""
        try:
            self._simulate(should_stop)
            self._synchronize()
            return self._timeline()
        finally:
            self._let_go()

    def _simulate(self, should_stop: Callable[[], bool] | None) -> None:
        events, version, pop, call_ns = self._events, self._version, heapq.heappop, self._lead_ns
        n_ops = len(self.ops)
        steps = 0
        while True:
            host_due = self._host_next < n_ops and self._host_waiting_for < 0
            # An op reaches the GPU when its call returns: that is when the host's step happens.
            if host_due and (not events or self._host_time + call_ns[self._host_next] <= events[0][0]):
                self._issue_next()
            elif events:
                time, _, kind, op, op_version = pop(events)
                if kind == _SIGNAL:
                    self._signal(op, time)
                elif kind == _EVENT:
                    self._event(op, time)
                elif op_version == version[op]:
                    self._complete(op, time)
            else:
                break
            steps += 1
            if should_stop is not None and steps % _CANCEL_CHECK_EVERY == 0 and should_stop():
                raise InterruptedError("simulation stopped")

    def _synchronize(self) -> None:
        """The host waits for the device, then frees what it allocated."""
        last_end = max(self.end, default=0.0)
        sync_end = max(last_end, self._host_time)
        self._add_call(self._call_name_index("cudaDeviceSynchronize"), self._host_time, sync_end, -1)
        self._host_time = sync_end
        for name, ns in self._host_after:
            self._host_call(name, ns)

    def _timeline(self) -> Timeline:
        return Timeline(_floats(self.enqueue), _floats(self.ready), _floats(self.start), _floats(self.end),
                        self._host_calls())  # fmt: skip

    def _host_calls(self) -> HostCalls:
        return HostCalls(
            tuple(self._call_names), _array(self._call_name_of, np.int64), _floats(self._call_start),
            _floats(self._call_end), _array(self._call_op, np.int64), _array(self._call_device, np.int64),
        )  # fmt: skip

    def _let_go(self) -> None:
        """Empty the run's per-op lists a piece at a time, once the timeline holds their numbers (or the run stopped).

        On a big run they hold 10^6 Python objects; freed all at once with the model, they
        would hold Python's lock for about 100 ms (the GUI thread waits on it).
        """
        for name in _PER_OP_LISTS:
            clear_in_pieces(getattr(self, name))

    # --- the host thread -------------------------------------------------------------------

    def _issue_next(self) -> None:
        """The host calls the API for the next op; the op reaches its queue when the call returns."""
        i = self._host_next
        if self._on_host[i]:
            self._host_copy(i)
            return
        self._host_next += 1
        if self._calls_before:
            self._device_calls(self._calls_before[i])
        begin = self._host_time
        returns = begin + self._call_ns[i]
        self.enqueue[i] = begin
        if not self._graph:
            self._add_call(self._call_name[i], begin, returns, i)
        elif i == 0:
            self._graph_begin = begin
        if self._graph and i == len(self.ops) - 1:  # linked to the last op, which starts after the call
            self._add_call(self._call_name_index("cudaGraphLaunch"), self._graph_begin, returns, i)
        if self.ops[i].blocks_host:
            self._host_waiting_for = i  # the call returns when the copy is done (see _complete)
        else:
            self._host_time = returns + self._gap_ns
            if self._calls_after:
                self._device_calls(self._calls_after[i])
        self.submitted[i] = True
        self.ready[i] = returns
        self._advance_queue(self._queue_of[i], returns)

    def _host_copy(self, i: int) -> None:
        """The host copies a chunk into or out of a ring slot, first waiting for the D2H it empties."""
        begin = self._host_time
        waited = self.ops[i].waits_for
        if waited >= 0 and self.end[waited] < 0:  # not done: wait in the event's synchronize
            self._add_call(self._call_name_index("cudaEventSynchronize"), begin, begin, -1)
            self._host_waiting_for = waited  # _complete ends the call; the host then comes back here
            return
        if waited >= 0 and self.end[waited] > begin:  # it ended while the host was getting here
            self._add_call(self._call_name_index("cudaEventSynchronize"), begin, self.end[waited], -1)
            begin = self.end[waited]
        self._host_next += 1
        self.submitted[i] = True
        self.enqueue[i] = self.ready[i] = self.start[i] = begin
        self.end[i] = begin + self.ops[i].work_ns
        self._host_time = self.end[i] + self._gap_ns

    # --- streams and queues ----------------------------------------------------------------

    def _signal(self, i: int, time: float) -> None:
        """What `i` waited for has finished: it may go once it is submitted and waits for nothing else."""
        self._signals_left[i] -= 1
        if self._signals_left[i]:
            return
        self.signalled[i] = True
        if self.submitted[i]:
            # Ready when its stream reached it, even where the signal itself came late (Fermi):
            # the wait that follows is the hardware's doing, and the timeline shows it as such.
            reached = self._stream_reached[i]
            self.ready[i] = max(self.ready[i], min(time, time if reached == _NOT_YET else reached))
            self._advance_queue(self._queue_of[i], time)

    def _event(self, i: int, time: float) -> None:
        """The op of another stream that `i` waits for has ended and its event been signalled."""
        reached = self._stream_reached[i]
        if reached != _NOT_YET:  # the op before it in its stream has ended too: `i` is ready no earlier than now
            self._stream_reached[i] = max(reached, time)
        self._signal(i, time)

    def _advance_queue(self, queue: int, time: float) -> None:
        """Hand the ops at the front of `queue` that are ready to their engines, in order."""
        ops = self._queues[queue]
        pos = self._queue_pos[queue]
        submitted, signalled = self.submitted, self.signalled
        units: list[int] = []
        while pos < len(ops):
            i = ops[pos]
            if not (submitted[i] and signalled[i]):
                break  # a false dependency for everything behind it in this queue
            unit = self._unit[i]
            self._engines[unit].pending.append(i)
            if unit not in units:
                units.append(unit)
            pos += 1
        self._queue_pos[queue] = pos
        for unit in units:
            self._start_ready(unit, time)

    # --- engines ---------------------------------------------------------------------------

    def _start_ready(self, unit: int, time: float) -> None:
        engine = self._engines[unit]
        if unit % _ENGINES_PER_GPU != _COMPUTE:
            if engine.pending and not engine.running:  # a copy engine runs one copy at a time
                i = self._pick(engine)
                self._start(engine, i, time)
                self._rebalance_copies(time, started=i)
            return
        while engine.pending:
            i = self._pick(engine)
            if engine.running:
                fits = self.profile.concurrent_kernels and engine.busy + self.ops[i].occupancy <= _FULL
                if not fits:
                    return
            self._start(engine, i, time)
            self._schedule_complete(i, time + self.ops[i].work_ns)

    def _start(self, engine: _Engine, i: int, time: float) -> None:
        engine.pending.remove(i)
        engine.running.append(i)
        engine.busy += self.ops[i].occupancy
        engine.last_queue = self._queue_of[i]
        self.start[i] = time

    def _pick(self, engine: _Engine) -> int:
        """The pending op an engine takes next.

        Per-engine queues hand ops over in issue order, so the oldest goes first. With Hyper-Q
        the engine keeps serving the queue it served last while that queue has work for it
        (seen on the H200: in breadth order a stream's second H2D runs right after its first,
        ahead of other streams' copies that were ready earlier), else the op ready longest.
        """
        pending = engine.pending
        if not self.profile.per_engine_queues:
            for i in pending:
                if self._queue_of[i] == engine.last_queue:
                    return i
            return min(pending, key=lambda i: (self.ready[i], i))
        return min(pending)

    def _complete(self, i: int, time: float) -> None:
        op = self.ops[i]
        unit = self._unit[i]
        engine = self._engines[unit]
        engine.running.remove(i)
        engine.busy -= op.occupancy
        self.end[i] = time
        if unit % _ENGINES_PER_GPU != _COMPUTE:
            del self._copy_rate[i]
            self._rebalance_copies(time)
        if self._host_waiting_for == i:
            self._host_waiting_for = -1
            self._call_end[-1] = time  # the blocking call returns now
            self._host_time = time + self.profile.issue_gap_us * 1e3
            if self._calls_after:
                self._device_calls(self._calls_after[i])
        self._signal_successor(i, time)
        for dependent in self._dependents.get(i, ()):
            self._push(time + self.profile.signal_latency_us * 1e3, _EVENT, dependent, 0)
        self._start_ready(unit, time)

    def _signal_successor(self, i: int, time: float) -> None:
        latency = self.profile.signal_latency_us * 1e3
        successor = self._successor[i]
        if successor >= 0:
            self._stream_reached[successor] = time + latency  # what stream order alone asks for
        batch = self._kernel_batch[i]
        if batch >= 0:
            self._batch_left[batch] -= 1
            done = self._batch_done.setdefault(batch, [])
            done.append(i)
            if self._batch_left[batch]:
                return  # Fermi holds the signal until the whole batch has finished
            finished = done
        else:
            finished = [i]
        for j in finished:
            successor = self._successor[j]
            if successor < 0:
                continue
            if self._unit[successor] == self._unit[j]:
                # The engine itself keeps a stream's consecutive ops in order: no signal to wait for.
                self._signal(successor, time)
            else:
                self._push(time + latency, _SIGNAL, successor, 0)

    # --- copies sharing the link -----------------------------------------------------------

    def _rebalance_copies(self, time: float, started: int = -1) -> None:
        """Give every running copy its rate: slower while both directions copy at once, or (two GPUs) links are shared.

        Called whenever a copy starts or ends. A copy's work is kept as nanoseconds at the
        full rate; its end is rescheduled whenever its rate changes.
        """
        copies = self._copy_rate  # exactly the running copies
        if started >= 0:
            copies[started] = (0.0, self.ops[started].work_ns, time)
        if self._several_gpus:
            rates = copy_shares(copies, self._paths, self.profile.bidirectional_factor)
        else:
            kinds = [self.ops[i].kind for i in copies]
            rate = self.profile.bidirectional_factor if len(kinds) > 1 and any(k != kinds[0] for k in kinds) else 1.0
        for i, (old_rate, left, since) in copies.items():
            if self._several_gpus:
                rate = rates[i]
            if old_rate == rate:
                continue
            left -= (time - since) * old_rate
            copies[i] = (rate, left, time)  # replacing a value keeps the dict's size: safe mid-loop
            self._schedule_complete(i, time + max(left, 0.0) / rate)

    def _schedule_complete(self, i: int, time: float) -> None:
        self._version[i] += 1
        self._push(time, _COMPLETE, i, self._version[i])

    def _push(self, time: float, kind: int, op: int, version: int) -> None:
        self._seq += 1
        heapq.heappush(self._events, (time, self._seq, kind, op, version))


def _stream_successors(ops: list[Op]) -> list[int]:
    """For each op, the next op of its stream in issue order (-1 for the last)."""
    successor = [-1] * len(ops)
    last: dict[int, int] = {}
    for i, op in enumerate(ops):
        if op.stream < 0:  # a host copy: the host thread keeps its order
            continue
        if op.stream in last:
            successor[last[op.stream]] = i
        last[op.stream] = i
    return successor


def _first_in_stream(ops: list[Op]) -> list[bool]:
    """True for each op that is the first of its stream."""
    seen: set[int] = set()
    first = []
    for op in ops:
        first.append(op.stream not in seen)
        seen.add(op.stream)
    return first


def _work_queues(ops: list[Op], profile: DeviceProfile) -> tuple[list[int], list[list[int]]]:
    """Which hardware queue carries each op, and each queue's ops in issue order (host copies: none)."""
    keys: list[int | None] = []  # a key per queue: unique per GPU
    for op in ops:
        if op.stream < 0:
            keys.append(None)
        else:
            # each GPU has queues of its own; a GPU's streams share them as on one GPU (stream
            # numbers of GPU 1 are shifted by a constant, so the same streams share a queue)
            queue = int(op.unit) if profile.per_engine_queues else op.stream % profile.work_queues
            keys.append(queue + op.device * (len(Unit) + profile.work_queues))
    index = {key: n for n, key in enumerate(dict.fromkeys(key for key in keys if key is not None))}
    queues: list[list[int]] = [[] for _ in index]
    queue_of = [_NO_QUEUE if key is None else index[key] for key in keys]
    for i, queue in enumerate(queue_of):
        if queue != _NO_QUEUE:
            queues[queue].append(i)
    return queue_of, queues


def _kernel_batches(ops: list[Op], delayed_signal: bool) -> tuple[list[int], list[int]]:
    """Group kernels issued back to back on different streams (only where signals are delayed).

    A kernel whose stream already has a kernel in the current batch starts a new batch: it
    waits for that kernel, so it was not issued beside it, and holding their signals together
    would have each wait for the other.
    """
    batch_of = [-1] * len(ops)
    sizes: list[int] = []
    if not delayed_signal:
        return batch_of, sizes
    batch_streams: set[int] = set()
    for i, op in enumerate(ops):
        if op.kind is not OpKind.KERNEL:
            batch_streams = set()
            continue
        if not batch_streams or op.stream in batch_streams:
            sizes.append(0)
            batch_streams = set()
        batch_streams.add(op.stream)
        batch_of[i] = len(sizes) - 1
        sizes[-1] += 1
    return batch_of, sizes


def clear_in_pieces(items: list[Any]) -> None:
    """Empty `items` a piece at a time, so that freeing 10^5 objects never holds Python's lock for long.

    Freeing a list frees everything in it in one go, with no chance for another thread to
    run in between: 20 ms for the 2 x 10^5 ops of a 65,536-chunk run on a 2-core machine.
    """
    while items:
        del items[-_PIECE:]


def _floats(values: list[float]) -> npt.NDArray[np.float64]:
    floats: npt.NDArray[np.float64] = _array(values, np.float64)
    return floats


def _array(values: list[Any], dtype: type) -> npt.NDArray[Any]:
    """`values` as an array, converted a piece at a time (one conversion of 2 x 10^5 numbers took 30 ms)."""
    pieces: list[npt.NDArray[Any]] = [
        np.fromiter(values[i : i + _PIECE], dtype=dtype) for i in range(0, len(values), _PIECE)
    ]
    return np.concatenate(pieces) if pieces else np.zeros(0, dtype=dtype)
