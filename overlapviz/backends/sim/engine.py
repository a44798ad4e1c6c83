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

Where nothing is pending and the ops ahead each finish alone before the host's next call
returns, the loop hands them to `alone_runs` in one numpy step: the same times, far quicker
than one event at a time (a host-bound run of 65,536 chunks is almost all such ops).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

from overlapviz.backends.sim.alone_runs import AloneRuns
from overlapviz.backends.sim.device_calls import Calls, DeviceCall
from overlapviz.backends.sim.host_links import copy_shares
from overlapviz.backends.sim.model_state import NOT_YET, Engine
from overlapviz.backends.sim.timeline_columns import Timeline, clear_in_pieces

_COMPLETE, _SIGNAL, _EVENT = 0, 1, 2  # _EVENT: an op of another stream this one waits for has ended
_FULL = 1.0 + 1e-9  # occupancy sums up to this fit on the GPU (rounding slack)
_CANCEL_CHECK_EVERY = 2048
_PER_OP_LISTS = (
    "enqueue", "submitted", "ready", "signalled", "start", "end", "_version", "_successor", "_queue_of",
    "_unit", "_call_ns", "_call_name", "_kernel_batch", "_queues", "_call_name_of", "_call_start", "_call_end",
    "_call_op", "_call_device", "_stream_reached", "_on_host", "_signals_left", "_device", "_paths", "_lead_ns",
    "_calls_before", "_calls_after", "_kind", "_work_ns", "_occupancy", "_blocks_host",
    "_waits_for",
)  # fmt: skip


class GpuModel(AloneRuns):
    """Runs one pipeline's ops on one device profile: the event loop and what each event does."""

    def _device_calls(self, calls: Calls) -> None:
        """The host makes calls of two GPUs that issue no op, the caller's code after each."""
        for call in calls:
            self._device_call(call)

    def _device_call(self, call: DeviceCall) -> None:
        begin = self._host_time
        self._add_call(self._call_name_index(call.name), begin, begin + call.ns, -1, call.device)
        self._host_time = begin + call.ns + self._gap_ns

    def run(self, should_stop: Callable[[], bool] | None = None) -> Timeline:
        """Simulate until every op has finished (`InterruptedError` when `should_stop` says so on the way)."""
        try:
            self._set_up_alone_runs()
            self._simulate(should_stop)
            self._synchronize()
            return self._timeline()
        finally:
            self._let_go()

    def _simulate(self, should_stop: Callable[[], bool] | None) -> None:
        while self._steps(_CANCEL_CHECK_EVERY):
            if should_stop is not None and should_stop():
                raise InterruptedError("simulation stopped")

    def _steps(self, count: int) -> bool:
        """Take up to `count` steps (an op issued or an event handled); False once there is nothing left to do."""
        events, version, pop, call_ns = self._events, self._version, heapq.heappop, self._lead_ns
        issue_next, signal, event, complete = self._issue_next, self._signal, self._event, self._complete
        n_ops, try_alone_run = len(self.ops), self._try_alone_run
        left = count
        while left > 0:
            left -= 1
            # An op reaches the GPU when its call returns: that is when the host's step happens.
            host_next = self._host_next
            if (
                host_next < n_ops
                and self._host_waiting_for < 0
                and (not events or self._host_time + call_ns[host_next] <= events[0][0])
            ):
                if not events:  # nothing pending: maybe a run of ops that each finish alone
                    taken = try_alone_run()
                    if taken:
                        left -= taken - 1
                        continue
                    call_ns = self._lead_ns  # made by now (`_make_loop_lists`)
                issue_next()
            elif events:
                time, _, kind, op, op_version = pop(events)
                if kind == _COMPLETE:
                    if op_version == version[op]:
                        complete(op, time)
                elif kind == _SIGNAL:
                    signal(op, time)
                else:
                    event(op, time)
            else:
                return False
        return True

    def _synchronize(self) -> None:
        """The host waits for the device, then frees what it allocated."""
        last_end = max(self.end, default=0.0)
        sync_end = max(last_end, self._host_time)
        self._add_call(self._call_name_index("cudaDeviceSynchronize"), self._host_time, sync_end, -1)
        self._host_time = sync_end
        for name, ns in self._host_after:
            self._host_call(name, ns)

    def _timeline(self) -> Timeline:
        enqueue, ready, start, end = (self._op_times(row, values) for row, values in
                                      enumerate((self.enqueue, self.ready, self.start, self.end)))  # fmt: skip
        return Timeline(enqueue, ready, start, end, self._host_calls())

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
        self._host_next = i + 1
        if self._calls_before:
            self._device_calls(self._calls_before[i])
        begin = self._host_time
        returns = begin + self._call_ns[i]
        self.enqueue[i] = begin
        if not self._graph:
            self._add_call(self._call_name[i], begin, returns, i)
        else:
            self._graph_call(i, begin, returns)
        if self._blocks_host[i]:
            self._host_waiting_for = i  # the call returns when the copy is done (see _complete)
        else:
            self._host_time = returns + self._gap_ns
            if self._calls_after:
                self._device_calls(self._calls_after[i])
        self.submitted[i] = True
        self.ready[i] = returns
        if self.signalled[i]:  # else its queue stays held up, by it or by an op ahead of it
            self._advance_queue(self._queue_of[i], returns)

    def _host_copy(self, i: int) -> None:
        """The host copies a chunk into or out of a ring slot, first waiting for the D2H it empties."""
        begin = self._host_time
        waited = self._waits_for[i]
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
        self.end[i] = begin + self._work_ns[i]
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
            self.ready[i] = max(self.ready[i], min(time, time if reached == NOT_YET else reached))
            self._advance_queue(self._queue_of[i], time)

    def _event(self, i: int, time: float) -> None:
        """The op of another stream that `i` waits for has ended and its event been signalled."""
        reached = self._stream_reached[i]
        if reached != NOT_YET:  # the op before it in its stream has ended too: `i` is ready no earlier than now
            self._stream_reached[i] = max(reached, time)
        self._signal(i, time)

    def _advance_queue(self, queue: int, time: float) -> None:
        """Hand the ops at the front of `queue` that are ready to their engines, in order."""
        ops = self._queues[queue]
        pos = first = self._queue_pos[queue]
        submitted, signalled, unit_of, engines = self.submitted, self.signalled, self._unit, self._engines
        end = len(ops)
        while pos < end:
            i = ops[pos]
            if not (submitted[i] and signalled[i]):
                break  # a false dependency for everything behind it in this queue
            engines[unit_of[i]].pending.append(i)
            pos += 1
        if pos == first:
            return
        self._queue_pos[queue] = pos
        if pos == first + 1:
            self._start_ready(unit_of[ops[first]], time)
            return
        for unit in dict.fromkeys([unit_of[i] for i in ops[first:pos]]):  # each engine once, in the order reached
            self._start_ready(unit, time)

    # --- engines ---------------------------------------------------------------------------

    def _start_ready(self, unit: int, time: float) -> None:
        engine = self._engines[unit]
        if not self._is_compute[unit]:
            if engine.pending and not engine.running:  # a copy engine runs one copy at a time
                i = self._pick(engine)
                self._start(engine, i, time)
                self._rebalance_copies(time, started=i)
            return
        while engine.pending:
            i = self._pick(engine)
            if engine.running:
                fits = self._concurrent_kernels and engine.busy + self._occupancy[i] <= _FULL
                if not fits:
                    return
            self._start(engine, i, time)
            self._schedule_complete(i, time + self._work_ns[i])

    def _start(self, engine: Engine, i: int, time: float) -> None:
        engine.pending.remove(i)
        engine.running.append(i)
        engine.busy += self._occupancy[i]
        engine.last_queue = self._queue_of[i]
        self.start[i] = time

    def _pick(self, engine: Engine) -> int:
        """The pending op an engine takes next.

        Per-engine queues hand ops over in issue order, so the oldest goes first. With Hyper-Q
        the engine keeps serving the queue it served last while that queue has work for it
        (seen on the H200: in breadth order a stream's second H2D runs right after its first,
        ahead of other streams' copies that were ready earlier), else the op ready longest.
        """
        pending = engine.pending
        if len(pending) == 1:
            return pending[0]
        if not self._per_engine_queues:
            queue_of, last_queue = self._queue_of, engine.last_queue
            for i in pending:
                if queue_of[i] == last_queue:
                    return i
            return min(pending, key=lambda i: (self.ready[i], i))
        return min(pending)

    def _complete(self, i: int, time: float) -> None:
        unit = self._unit[i]
        engine = self._engines[unit]
        engine.running.remove(i)
        engine.busy -= self._occupancy[i]
        self.end[i] = time
        if not self._is_compute[unit]:
            del self._copy_rate[i]
            if self._copy_rate:  # the copies still running may speed up
                self._rebalance_copies(time)
        if self._host_waiting_for == i:
            self._host_waiting_for = -1
            self._call_end[-1] = time  # the blocking call returns now
            self._host_time = time + self._return_gap_ns
            if self._calls_after:
                self._device_calls(self._calls_after[i])
        successor = self._successor[i]
        if successor >= 0:
            self._stream_reached[successor] = time + self._signal_ns  # what stream order alone asks for
        batch = self._kernel_batch[i]
        if batch < 0:
            if successor >= 0:
                self._signal_next(i, successor, time)
        else:
            self._signal_batch(i, batch, time)
        if i in self._dependents:
            for dependent in self._dependents[i]:
                self._push(time + self._signal_ns, _EVENT, dependent, 0)
        if engine.pending:
            self._start_ready(unit, time)

    def _signal_batch(self, i: int, batch: int, time: float) -> None:
        """`i` of a batch of kernels has ended: Fermi holds the signal until the whole batch has finished."""
        self._batch_left[batch] -= 1
        done = self._batch_done.setdefault(batch, [])
        done.append(i)
        if self._batch_left[batch]:
            return
        for j in done:
            successor = self._successor[j]
            if successor >= 0:
                self._signal_next(j, successor, time)

    def _signal_next(self, i: int, successor: int, time: float) -> None:
        """`i` has ended (its signal given): the next op of its stream hears of it."""
        if self._unit[successor] == self._unit[i]:
            # The engine itself keeps a stream's consecutive ops in order: no signal to wait for.
            self._signal(successor, time)
        else:
            self._seq += 1
            heapq.heappush(self._events, (time + self._signal_ns, self._seq, _SIGNAL, successor, 0))

    # --- copies sharing the link -----------------------------------------------------------

    def _rebalance_copies(self, time: float, started: int = -1) -> None:
        """Give every running copy its rate: slower while both directions copy at once, or (two GPUs) links are shared.

        Called whenever a copy starts or ends. A copy's work is kept as nanoseconds at the
        full rate; its end is rescheduled whenever its rate changes.
        """
        copies = self._copy_rate  # exactly the running copies
        if started >= 0:
            if not copies and not self._several_gpus:  # alone on the link: at its full rate from now to its end
                work = self._work_ns[started]
                copies[started] = (1.0, work, time)
                self._schedule_complete(started, time + max(work, 0.0))
                return
            copies[started] = (0.0, self._work_ns[started], time)
        if self._several_gpus:
            rates = copy_shares(copies, self._paths, self.profile.bidirectional_factor)
        elif len(copies) < 2:
            rate = 1.0
        else:
            kind = self._kind
            first = kind[next(iter(copies))]
            rate = self.profile.bidirectional_factor if any(kind[i] != first for i in copies) else 1.0
        for i, (old_rate, left, since) in copies.items():
            if self._several_gpus:
                rate = rates[i]
            if old_rate == rate:
                continue
            left -= (time - since) * old_rate
            copies[i] = (rate, left, time)  # replacing a value keeps the dict's size: safe mid-loop
            self._schedule_complete(i, time + max(left, 0.0) / rate)

    def _schedule_complete(self, i: int, time: float) -> None:
        version = self._version[i] + 1
        self._version[i] = version
        self._seq += 1
        heapq.heappush(self._events, (time, self._seq, _COMPLETE, i, version))

    def _push(self, time: float, kind: int, op: int, version: int) -> None:
        self._seq += 1
        heapq.heappush(self._events, (time, self._seq, kind, op, version))
