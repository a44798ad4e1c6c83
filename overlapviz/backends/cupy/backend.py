"""The real-GPU backend: runs a pipeline through CuPy and returns what the hardware did.

Timing: CUPTI activity records by default (`cupti_session`), CUDA events with the engine
FIFO replayed as the fallback (`event_trace`): for every run when CUPTI cannot be used, and
for one run when another CUPTI client shares it (`cupti_timing`), and for a CUDA Graph, whose
ops CUPTI attributes to its one launch (they are timed by events captured inside the graph).
The trace says which one it used and why.
A run is: prepare (outside the timed region), tiny op, issue, synchronise, flush, convert,
check the output. Errors become `BackendError`s with words, and release every buffer, so a
cancelled or failed run leaves nothing pinned and the next run starts clean.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, replace
from typing import Any

from overlapviz import __version__
from overlapviz.backends.base import SWEEP_MEMORY_KINDS, SWEEP_SIZES, BandwidthPoint, DeviceInfo
from overlapviz.backends.cupy.bandwidth import SWEEP_MEMORIES, CopyTiming, device_copy_gbps, refuse_non_copies, sweep
from overlapviz.backends.cupy.buffers import BufferPool, HeldBytes
from overlapviz.backends.cupy.cupti_session import CuptiCollector, CuptiUnavailable, shared_collector
from overlapviz.backends.cupy.cupti_sharing import fallback_note
from overlapviz.backends.cupy.cupti_timing import CuptiShared, claim, collect_trace
from overlapviz.backends.cupy.device_facts import device_facts
from overlapviz.backends.cupy.event_trace import trace_from_events
from overlapviz.backends.cupy.failures import describe_error, releasing_on_error
from overlapviz.backends.cupy.kernels import fills_device, load_kernels
from overlapviz.backends.cupy.per_run import run_buffers
from overlapviz.backends.cupy.plan import device_plan
from overlapviz.backends.cupy.prepared import Prepared, Samples
from overlapviz.backends.cupy.ram_guard import pin_share
from overlapviz.backends.cupy.runner import PipelineRunner
from overlapviz.core.cancel import CancelToken
from overlapviz.core.config import HostMemory, PipelineConfig
from overlapviz.core.config.pipeline_plan import PlannedOp
from overlapviz.core.run_errors import BackendError
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import Trace

TIMING_ENV = "OVERLAPVIZ_TIMING"
GRAPH_TIMING_NOTE = (
    "a CUDA Graph's ops all carry its one launch's correlation id in CUPTI's records, so each op"
    " is timed by events recorded inside the graph"
)
TIMINGS = ("auto", "cupti", "events")
DEVICE_PREFIX = "cuda:"
# One run at a time per process, across backend instances: CUPTI's records are collected
# process-wide, and two runs at once would take each other's records and engines.
_RUN_LOCK = threading.RLock()


@dataclass
class _DeviceState:
    index: int
    facts: dict[str, Any]
    runner: PipelineRunner
    primed: bool = False  # whether a whole pipeline has run untimed on it yet


class CupyBackend:
    """Runs pipelines on NVIDIA GPUs through CuPy."""

    name = "cupy"

    def __init__(self, timing: str | None = None, pin_fraction: float | None = None) -> None:
        self.timing_choice = _timing_choice(timing)
        self.pin_share = pin_share(pin_fraction)
        self._states: dict[int, _DeviceState] = {}
        self._facts: dict[int, dict[str, Any]] = {}
        self._lock = _RUN_LOCK
        self._timing_reason = ""

    # --- devices -------------------------------------------------------------------------

    def devices(self) -> list[DeviceInfo]:
        """Every CUDA device CuPy can see ([] with no driver or no GPU)."""
        try:
            import cupy

            count = int(cupy.cuda.runtime.getDeviceCount())
        except Exception:  # no driver, no device, a broken install: the model takes over
            return []
        timing, reason = self.timing_status()
        infos = []
        for index in range(count):
            facts = {**self.facts(index), "timing": timing, "timing_reason": reason}
            infos.append(DeviceInfo(f"{DEVICE_PREFIX}{index}", str(facts["name"]), simulated=False, facts=facts))
        return infos

    def facts(self, index: int) -> dict[str, Any]:
        """Device facts of CUDA device `index`, read once."""
        if index not in self._facts:
            self._facts[index] = device_facts(index)
        return self._facts[index]

    def timing_status(self) -> tuple[str, str]:
        """The timing source runs will use and, when it is not CUPTI, why."""
        if self.timing_choice == "events":
            return "cuda-events", f"{TIMING_ENV}=events asks for CUDA events"
        try:
            taken = shared_collector().other_subscriber()
        except CuptiUnavailable as error:
            return "cuda-events", f"CUPTI is not used: {error}"
        if taken:
            return "cuda-events", f"CUPTI is not used while {taken}"
        return "cupti", "CUPTI activity records"

    # --- runs ----------------------------------------------------------------------------

    def run(self, config: PipelineConfig, device: str | None = None, cancel: CancelToken | None = None) -> Trace:
        """Run `config` once on `device` (default ``cuda:0``) and return its trace."""
        _refuse_several_gpus(config)
        with self._lock, self._on_device(device) as state:
            _check(cancel)
            held_before = state.runner.pool.snapshot()
            prepared = self._prepare(state, config, held_before)
            plan = prepared.plan.ops()
            state.runner.nvtx.prepare(f"overlapviz run: {config.describe()}", plan)
            with self._releasing_on_error(state, "running the pipeline", held_before):
                _check(cancel)
                trace, samples = self._timed_run(state, prepared, plan)
                _check(cancel)
                state.runner.check(prepared, samples)
            # kept for the next run of this size: the app says how much, and can give it back
            return trace.with_meta(pinned_kept_bytes=state.runner.pool.pinned_bytes)

    def wall_times(self, config: PipelineConfig, repeats: int, *, traced: bool, device: str | None = None) -> list[int]:
        """Host wall time (ns) of `repeats` runs, from the first call to the end of the sync.

        Traced runs are full runs (CUPTI on, flush and trace conversion after each); untraced
        runs pause CUPTI and issue the same calls. Measures what tracing costs.
        """
        _refuse_several_gpus(config)
        with self._lock, self._on_device(device) as state:
            prepared = self._prepare(state, config)
            plan = prepared.plan.ops()
            state.runner.nvtx.prepare(f"overlapviz run: {config.describe()}", plan)
            collector = self._collector() if not traced else None
            walls = []
            with self._releasing_on_error(state, "timing the pipeline"):
                if collector is not None:
                    collector.pause()
                try:
                    for _ in range(repeats):
                        if traced:
                            walls.append(int(self._timed_run(state, prepared, plan)[0].meta.host_wall_ns or 0))
                        else:
                            walls.append(self._untimed_run(state, prepared, plan))
                finally:
                    if collector is not None:
                        collector.resume()
            return walls

    def bandwidth(
        self,
        sizes: Sequence[int] = SWEEP_SIZES,
        repeats: int = 3,
        device: str | None = None,
        memories: Sequence[HostMemory] = SWEEP_MEMORIES,
    ) -> list[CopyTiming]:
        """H2D and D2H bandwidth by transfer size, for each copy kind of host memory given."""
        import cupy

        try:
            refuse_non_copies(memories)
        except ValueError as error:
            raise BackendError(str(error)) from None
        with self._lock, self._on_device(device) as state:
            stream = cupy.cuda.Stream(non_blocking=True)
            with self._releasing_on_error(state, "measuring bandwidth"):
                return sweep(state.runner.pool, stream, sizes, memories, repeats)

    def bandwidth_sweep(
        self,
        sizes: Sequence[int] = SWEEP_SIZES,
        kinds: Sequence[str] | None = None,
        device: str | None = None,
    ) -> list[BandwidthPoint]:
        """The sweep as the command line and the app read it (the simulated backend's keys).

        Each point: ``size`` (bytes), ``memory``, ``direction``, ``gbps``, ``seconds`` (the copy
        on the device) and ``call_seconds`` (how long the call held the host thread).
        """
        try:
            memories = [HostMemory(kind) for kind in (SWEEP_MEMORY_KINDS if kinds is None else kinds)]
        except ValueError as error:
            raise BackendError(f"{error}; memory kinds are: {', '.join(m.value for m in HostMemory)}") from None
        return [
            BandwidthPoint(size=p.size_bytes, memory=p.memory, direction=p.direction, gbps=p.gbps,
                           seconds=p.ms / 1e3, call_seconds=p.call_ms / 1e3)
            for p in self.bandwidth(sizes, device=device, memories=memories)
        ]  # fmt: skip

    def device_memory_gbps(self, device: str | None = None) -> float:
        """Device-memory bandwidth of the memory-bound kernel (read + write), GB/s."""
        with self._lock, self._on_device(device) as state:
            runner = state.runner
            with self._releasing_on_error(state, "measuring device memory bandwidth"):
                return device_copy_gbps(runner.pool, runner.kernels, runner.sm_count)

    def close(self) -> None:
        """Free every buffer on every device."""
        self.release_buffers()

    def release_buffers(self) -> None:
        """Give back every buffer kept for reuse (pinned host memory included); the next run allocates anew."""
        import cupy

        with self._lock:
            for state in self._states.values():
                with cupy.cuda.Device(state.index):
                    cupy.cuda.runtime.deviceSynchronize()
                    state.runner.pool.release_all()

    def held_bytes(self) -> HeldBytes:
        """What the buffers kept for reuse hold now, over every device."""
        with self._lock:
            held = [state.runner.pool.held() for state in self._states.values()]
        return HeldBytes(
            sum(h.pinned for h in held), sum(h.pageable for h in held), sum(h.device for h in held)
        )

    def pinned_bytes(self, device: str | None = None) -> int:
        """Host bytes this backend holds page-locked on `device`."""
        index = self._index(device)
        state = self._states.get(index)
        return state.runner.pool.pinned_bytes if state else 0

    # --- steps ---------------------------------------------------------------------------

    def _prepare(self, state: _DeviceState, config: PipelineConfig, held_before: set[int] | None = None) -> Prepared:
        with self._releasing_on_error(state, "allocating buffers", held_before):
            return state.runner.prepare(device_plan(config, state.facts))

    def _timed_run(self, state: _DeviceState, prepared: Prepared, plan: list[PlannedOp]) -> tuple[Trace, Samples]:
        """One run: its trace and the sampled output for the check.

        Timed with CUPTI when it is ours alone (checked before and after the run), else
        with CUDA events and the reason as the trace's timing note.
        """
        collector = self._collector()
        # A process's first run, right after tracing began, is slower; run the pipeline once
        # untimed first (not into a fresh output buffer, whose first touch is the point).
        if not state.primed and not prepared.config.fresh_output:
            self._untimed_run(state, prepared, plan)
            state.primed = True
        note = self._timing_reason
        if prepared.config.graph:
            return self._run_traced(state, prepared, plan, None, GRAPH_TIMING_NOTE)
        if collector is not None:
            reason = self._claim(state, prepared, plan, collector)
            if not reason:
                try:
                    return self._run_traced(state, prepared, plan, collector)
                except CuptiShared as error:
                    reason = str(error)
            if self.timing_choice == "cupti":
                raise BackendError(f"CUPTI timing was asked for but {reason}")
            note = fallback_note(reason)
        return self._run_traced(state, prepared, plan, None, note)

    def _claim(self, state: _DeviceState, prepared: Prepared, plan: list[PlannedOp], collector: CuptiCollector) -> str:
        """Why CUPTI cannot time this run ("" if it can), checked right before it."""
        import cupy

        def touch() -> None:
            state.runner.touch(prepared)
            cupy.cuda.runtime.deviceSynchronize()

        checked = claim(collector, touch)
        if checked.rearmed and not checked.reason and not prepared.config.fresh_output:
            self._untimed_run(state, prepared, plan)  # the first run after enabling is slower
            touch()
        return checked.reason

    def _run_traced(
        self, state: _DeviceState, prepared: Prepared, plan: list[PlannedOp],
        collector: CuptiCollector | None, note: str = "",
    ) -> tuple[Trace, Samples]:  # fmt: skip
        """Issue the run once, timed by `collector` (None: by CUDA events, `note` saying why)."""
        import cupy

        runner, config = state.runner, prepared.config
        meta = self._meta(state, config)
        runner.touch(prepared)  # CUPTI's buffer request lands here, before the timed region
        cupy.cuda.runtime.deviceSynchronize()
        if collector is None:
            clock: Callable[[], int] = time.perf_counter_ns
        else:
            offset = collector.timestamp() - time.time_ns()  # host steps on CUPTI's clock

            def clock() -> int:
                return time.time_ns() + offset

        begin = collector.timestamp() if collector is not None else 0
        with run_buffers(runner, prepared, clock) as buffers:
            runner.poison(prepared)
            if collector is None:
                times, side = runner.issue_with_events(prepared, plan)
                meta = replace(
                    meta, host_wall_ns=times.sync_end - times.call_start[0],
                    host_issue_ns=max(times.call_end) - times.call_start[0],
                )  # fmt: skip
            else:
                wall_start = time.perf_counter_ns()
                side = runner.issue(prepared, plan, clock)
                issued = time.perf_counter_ns()
                cupy.cuda.runtime.deviceSynchronize()
                meta = replace(
                    meta, host_wall_ns=time.perf_counter_ns() - wall_start, host_issue_ns=issued - wall_start
                )
                side.settle()
            after = runner.after_sync(prepared, clock)
            samples = runner.detach(prepared) if buffers is not None else runner.samples(prepared)
        steps = [*(buffers.steps if buffers is not None else []), *after]
        meta = _with_kind_meta(meta, prepared)
        if collector is not None:
            return collect_trace(collector, begin, plan, config, meta, steps, side), samples
        trace = trace_from_events(
            plan, times, replace(meta, timing_reason=note),
            kernels_fill_device=fills_device(prepared.plan), host_steps=[*steps, *side.waits],
            per_op_calls=prepared.graph is None,
        )  # fmt: skip
        return trace, samples

    def _untimed_run(self, state: _DeviceState, prepared: Prepared, plan: list[PlannedOp]) -> int:
        import cupy

        state.runner.touch(prepared)
        cupy.cuda.runtime.deviceSynchronize()
        wall_start = time.perf_counter_ns()
        with run_buffers(state.runner, prepared, time.perf_counter_ns) as buffers:
            state.runner.issue(prepared, plan)
            cupy.cuda.runtime.deviceSynchronize()
            if buffers is not None:
                state.runner.detach(prepared)
        return time.perf_counter_ns() - wall_start

    def _collector(self) -> CuptiCollector | None:
        """CUPTI's collector, or None when runs are timed with events (reason kept)."""
        if self.timing_choice == "events":
            self._timing_reason = f"{TIMING_ENV}=events asks for CUDA events"
            return None
        try:
            return shared_collector()
        except CuptiUnavailable as error:
            if self.timing_choice == "cupti":
                raise BackendError(f"CUPTI timing was asked for but {error}") from error
            self._timing_reason = f"CUPTI is not used: {error}"
            return None

    def _meta(self, state: _DeviceState, config: PipelineConfig) -> TraceMeta:
        return TraceMeta(
            backend=self.name,
            device=f"{DEVICE_PREFIX}{state.index}",
            device_name=str(state.facts["name"]),
            config=config.to_dict(),
            version=__version__,
            simulated=False,
            device_facts=dict(state.facts),
        )

    # --- devices and errors --------------------------------------------------------------

    def _index(self, device: str | None) -> int:
        if device is None or device == "":
            return 0
        text = device[len(DEVICE_PREFIX) :] if device.startswith(DEVICE_PREFIX) else device
        if not text.isdigit():
            raise BackendError(f"unknown CUDA device {device!r}; use cuda:0, cuda:1, ...")
        return int(text)

    @contextmanager
    def _on_device(self, device: str | None) -> Iterator[_DeviceState]:
        import cupy

        index = self._index(device)
        try:
            count = int(cupy.cuda.runtime.getDeviceCount())
        except Exception as error:
            raise BackendError(f"no usable CUDA device: {describe_error(error)}") from error
        if index >= count:
            raise BackendError(f"there is no CUDA device {index}; this machine has {count}")
        with cupy.cuda.Device(index):  # CuPy's current device is per thread: set it in this one
            yield self._state(index)

    def _state(self, index: int) -> _DeviceState:
        if index not in self._states:
            try:
                facts = self.facts(index)
                kernels = load_kernels()
            except Exception as error:
                raise BackendError(f"the GPU could not be set up: {describe_error(error)}") from error
            pool = BufferPool(self.pin_share)
            self._states[index] = _DeviceState(index, facts, PipelineRunner(pool, kernels, int(facts["sm_count"])))
        return self._states[index]

    def _releasing_on_error(
        self, state: _DeviceState, stage: str, held_before: set[int] | None = None
    ) -> AbstractContextManager[None]:
        return releasing_on_error(state.runner.pool, stage, held_before)


def _with_kind_meta(meta: TraceMeta, prepared: Prepared) -> TraceMeta:
    """`meta` with what the run's host memory kind adds: the ring's pinned bytes, the graph's capture."""
    return replace(
        meta,
        ring_pinned_bytes=None if prepared.ring is None else prepared.ring.nbytes,
        graph_capture_ns=None if prepared.graph is None else prepared.graph.capture_ns,
    )


def _check(cancel: CancelToken | None) -> None:
    if cancel is not None:
        cancel.check()


def _timing_choice(timing: str | None) -> str:
    choice = (timing or os.environ.get(TIMING_ENV, "") or "auto").lower()
    if choice not in TIMINGS:
        raise BackendError(f"timing {choice!r} is not one of: {', '.join(TIMINGS)}")
    return choice


def create_backend() -> CupyBackend:
    """The backend the registry loads (CuPy itself is imported only when a run needs it)."""
    return CupyBackend()


def _refuse_several_gpus(config: PipelineConfig) -> None:
    """Two-GPU pipelines are the model's alone: this backend issues every op on one GPU."""
    if config.gpus > 1:
        raise BackendError(
            f"the CuPy backend runs one GPU; the {config.gpus}-GPU pipeline runs only on the model"
            " (--backend sim --device h200x2-nvlink)"
        )
