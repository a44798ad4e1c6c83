"""The state of the GPU model before and during a run: what each op waits for, the queues, the engines, the host.

`engine.GpuModel` runs the events that change it; see that module for what the model models.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.backends.sim.device_calls import Calls, device_calls
from overlapviz.backends.sim.host_links import link_paths
from overlapviz.backends.sim.issue_calls import issue_calls
from overlapviz.backends.sim.op_order import first_in_stream, kernel_batches, stream_successors, work_queues
from overlapviz.backends.sim.op_table import Op
from overlapviz.backends.sim.ops import OpColumns, op_column
from overlapviz.backends.sim.profile import DeviceProfile
from overlapviz.backends.sim.timeline_columns import HostCalls, column
from overlapviz.core.trace.spans import OpKind, Unit

MIGRATIONS = max(int(unit) for unit in Unit) + 1  # the engine of prefetches done one at a time
ENGINES_PER_GPU = MIGRATIONS + 1  # GPU g's engine for unit u is g * ENGINES_PER_GPU + u
NOT_YET = -1.0  # no time yet (the model's times are never negative)
CallColumns = tuple[npt.NDArray[Any], ...]  # host calls' name, start, end, op and device (see `HostCalls`)


class Engine:
    """A copy engine, or the SMs (capacity shared by occupancy)."""

    __slots__ = ("busy", "last_queue", "pending", "running")

    def __init__(self) -> None:
        self.pending: list[int] = []  # ops handed over by their queue, waiting for this engine
        self.running: list[int] = []
        self.busy = 0.0  # occupancy in use (copy engines: 0 or 1)
        self.last_queue = -1  # the queue that last started an op here (Hyper-Q keeps serving it)


class ModelState:
    """One pipeline's ops on one device profile, set up to run, and the host's calls recorded as they happen."""

    def __init__(
        self,
        profile: DeviceProfile,
        ops: Sequence[Op],
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
        columns = OpColumns.of(ops)
        self._columns = columns
        self._set_up_op_times(len(ops))
        self._set_up_op_costs(ops)
        self._set_up_waits(ops, columns)
        self._set_up_gpus(ops, columns, peer_access)
        self._set_up_queues_and_engines(columns)
        self._set_up_host_call_columns()
        self._set_up_host_thread(ops, columns, graph_op_ns)
        self._set_up_loop_lists()
        self._host_after = host_after
        for name, ns in host_before:
            self._host_call(name, ns)

    def _set_up_op_times(self, n: int) -> None:
        """Each op's times (-1: not started or ended yet), and whether the host has issued it."""
        self.enqueue = [0.0] * n
        self.submitted = [False] * n
        self.ready = [0.0] * n
        self.start = [-1.0] * n
        self.end = [-1.0] * n

    def _set_up_op_costs(self, ops: Sequence[Op]) -> None:
        """What the event loop reads of each op (as arrays; see `_make_loop_lists`), and the profile's constants."""
        self._occupancy_column = op_column(ops, "occupancy", np.float64)
        self._blocks_host_column = op_column(ops, "blocks_host", np.bool_)
        profile = self.profile
        self._concurrent_kernels = profile.concurrent_kernels
        self._per_engine_queues = profile.per_engine_queues
        self._signal_ns = profile.signal_latency_us * 1e3
        self._return_gap_ns = profile.issue_gap_us * 1e3  # after a blocking call returns, even in a graph

    def _set_up_waits(self, ops: Sequence[Op], columns: OpColumns) -> None:
        """What each op waits for before it may go, and whom it signals when it ends."""
        # The op before it in its stream (none for the first of a stream) and an op of another
        # stream (an event), where it has one.
        waits = columns.after >= 0
        signals_left = (~first_in_stream(columns.stream)).astype(np.int64) + waits
        self._signals_left: list[int] = signals_left.tolist()
        self.signalled: list[bool] = (signals_left == 0).tolist()
        self._dependents: dict[int, list[int]] = {}  # op -> the ops of other streams waiting for it
        for i, waited in zip(np.flatnonzero(waits).tolist(), columns.after[waits].tolist(), strict=True):
            self._dependents.setdefault(waited, []).append(i)
        self._successor_column = stream_successors(columns.stream)
        self._kernel_batch, self._batch_left = kernel_batches(ops, self.profile.delayed_kernel_signal)
        self._batch_done: dict[int, list[int]] = {}
        self._stream_reached = [NOT_YET] * len(ops)  # when the op before each in its stream ended

    def _set_up_gpus(self, ops: Sequence[Op], columns: OpColumns, peer_access: bool) -> None:
        """The GPU of each op, and (two GPUs) the PCIe link directions each copy crosses."""
        self._several_gpus = bool(columns.device.any())
        peer = self.profile.peer
        self._paths = (
            link_paths(ops, shared_host_link=peer is not None and peer.shared_host_link,
                       peer_over_pcie=peer_access and peer is not None and not peer.nvlink)
            if self._several_gpus else []
        )  # fmt: skip

    def _set_up_queues_and_engines(self, columns: OpColumns) -> None:
        """The work queues, the engine of each op, the engines, and the events that drive the run."""
        profile = self.profile
        self._events: list[tuple[float, int, int, int, int]] = []  # (time, seq, kind, op, version)
        self._seq = 0
        self._version = [0] * len(columns.kind)  # bumped when an op's end moves: an event of an older one is stale
        self._queue_column, self._queue_ops = work_queues(columns.stream, columns.unit, columns.device, profile)
        self._queue_pos = [0] * len(self._queue_ops)
        # Indexed by int(Unit): enum members hash through Python code, too slow for this loop.
        one_migration = profile.host_kinds is not None and profile.host_kinds.migrations_one_at_a_time
        migrates = (columns.kind == OpKind.PREFETCH) & one_migration
        self._unit_column = np.where(migrates, MIGRATIONS, columns.unit) + columns.device * ENGINES_PER_GPU
        self._engines = [Engine() for _ in range(ENGINES_PER_GPU * (1 + int(columns.device.max(initial=0))))]
        self._is_compute = [unit % ENGINES_PER_GPU == int(Unit.COMPUTE) for unit in range(len(self._engines))]
        self._copy_rate: dict[int, tuple[float, float, float]] = {}  # op -> (rate, work left, since)

    def _set_up_host_call_columns(self) -> None:
        """The host's calls, one list per column (see `_host_calls`), after the pieces already made arrays."""
        self._call_names: dict[str, int] = {}
        self._call_pieces: list[CallColumns] = []  # in order, before the calls in the lists
        self._call_name_of: list[int] = []
        self._call_start: list[float] = []
        self._call_end: list[float] = []
        self._call_op: list[int] = []
        self._call_device: list[int] = []

    def _set_up_host_thread(self, ops: Sequence[Op], columns: OpColumns, graph_op_ns: float | None) -> None:
        """What each op's call costs the host, the calls around it, and where the host thread stands."""
        profile = self.profile
        call_ns, self._call_name_column = issue_calls(columns, profile, self._call_name_index)
        self._on_host_column = columns.kind == OpKind.HOST_COPY
        self._gap_ns = profile.issue_gap_us * 1e3
        self._graph = graph_op_ns is not None
        if graph_op_ns is not None:  # one call issues them all: no caller's code between ops
            call_ns, self._gap_ns = np.full(len(ops), graph_op_ns), 0.0
        self._call_ns_column = call_ns
        # Host calls of two GPUs that issue no op, before and after each op's own call; the
        # host's step for an op (it reaching its queue) comes `_lead_ns` after the first of them.
        self._calls_before: list[Calls] = []
        self._calls_after: list[Calls] = []
        self._lead_ns_column = call_ns
        if self._several_gpus and profile.peer is not None and graph_op_ns is None:
            self._calls_before, self._calls_after = device_calls(ops, profile.peer)
            lead_ns = [
                sum(call.ns + self._gap_ns for call in calls) + ns
                for calls, ns in zip(self._calls_before, call_ns.tolist(), strict=True)
            ]
            self._lead_ns_column = np.asarray(lead_ns, dtype=np.float64)
        self._graph_begin = 0.0
        self._host_next = 0
        self._host_time = 0.0
        self._host_waiting_for = -1

    def _set_up_loop_lists(self) -> None:
        """The per-op lists the event loop reads, empty until it first takes a step itself."""
        self._loop_lists_made = False
        self._kind: list[int] = []
        self._work_ns: list[float] = []
        self._occupancy: list[float] = []
        self._blocks_host: list[bool] = []
        self._waits_for: list[int] = []  # read only for host copies
        self._successor: list[int] = []
        self._queue_of: list[int] = []
        self._queues: list[list[int]] = []  # each work queue's ops, in issue order
        self._unit: list[int] = []
        self._call_ns: list[float] = []
        self._lead_ns: list[float] = []
        self._call_name: list[int] = []
        self._on_host: list[bool] = []
        self._device: list[int] = []

    def _make_loop_lists(self) -> None:
        """Fill the event loop's per-op lists from the arrays (once).

        The loop reads a list item quicker than an array's. A host-bound run that
        `alone_runs` takes whole never needs them, and making and freeing a dozen lists of
        10^5 items costs tens of ms.
        """
        if self._loop_lists_made:
            return
        self._loop_lists_made = True
        columns = self._columns
        self._kind, self._work_ns = columns.kind.tolist(), columns.work_ns.tolist()
        self._occupancy, self._blocks_host = self._occupancy_column.tolist(), self._blocks_host_column.tolist()
        self._waits_for = op_column(self.ops, "waits_for").tolist() if self._on_host_column.any() else []
        self._successor, self._unit = self._successor_column.tolist(), self._unit_column.tolist()
        self._queue_of, self._queues = self._queue_column.tolist(), [ops.tolist() for ops in self._queue_ops]
        self._call_ns, self._call_name = self._call_ns_column.tolist(), self._call_name_column.tolist()
        same = self._lead_ns_column is self._call_ns_column
        self._lead_ns = self._call_ns if same else self._lead_ns_column.tolist()
        self._on_host, self._device = self._on_host_column.tolist(), columns.device.tolist()

    def _host_call(self, name: str, ns: float) -> None:
        """The host spends `ns` in a call that issues no device op."""
        self._add_call(self._call_name_index(name), self._host_time, self._host_time + ns, -1)
        self._host_time += ns

    def _graph_call(self, i: int, begin: float, returns: float) -> None:
        """One cudaGraphLaunch issues every op: its call spans from the first op's issue to the last's."""
        if i == 0:
            self._graph_begin = begin
        if i == len(self.ops) - 1:  # linked to the last op, which starts after the call
            self._add_call(self._call_name_index("cudaGraphLaunch"), self._graph_begin, returns, i)

    def _add_calls(self, calls: CallColumns) -> None:
        """Record calls given as columns (name, start, end, op, device), after those recorded so far."""
        self._move_calls_to_pieces()
        self._call_pieces.append(calls)

    def _move_calls_to_pieces(self) -> None:
        lists: tuple[list[Any], ...] = (
            self._call_name_of, self._call_start, self._call_end, self._call_op, self._call_device,
        )  # fmt: skip
        if lists[0]:
            dtypes = (np.int64, np.float64, np.float64, np.int64, np.int64)
            self._call_pieces.append(tuple(column(values, dtype) for values, dtype in zip(lists, dtypes, strict=True)))
            for values in lists:
                values.clear()

    def _host_calls(self) -> HostCalls:
        """Every call the host made, as columns."""
        self._move_calls_to_pieces()
        name, start, end, op, device = (np.concatenate(part) for part in zip(*self._call_pieces, strict=True))
        return HostCalls(tuple(self._call_names), name, start, end, op, device)

    def _call_name_index(self, name: str) -> int:
        return self._call_names.setdefault(name, len(self._call_names))

    def _add_call(self, name: int, start_ns: float, end_ns: float, op: int, device: int = -1) -> None:
        """Record a host call; one that issued an op acts on that op's GPU."""
        self._call_name_of.append(name)
        self._call_start.append(start_ns)
        self._call_end.append(end_ns)
        self._call_op.append(op)
        self._call_device.append(self._device[op] if op >= 0 else device)
