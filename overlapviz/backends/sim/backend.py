"""The simulated backend: runs a pipeline on the GPU model and returns its trace."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz import __version__
from overlapviz.backends.base import SWEEP_SIZES, BandwidthPoint, DeviceInfo
from overlapviz.backends.sim.alloc import host_alloc_calls
from overlapviz.backends.sim.bandwidth import bandwidth_sweep
from overlapviz.backends.sim.engine import GpuModel
from overlapviz.backends.sim.host_reads import host_read_calls
from overlapviz.backends.sim.invariants import check_timeline
from overlapviz.backends.sim.op_table import Op
from overlapviz.backends.sim.ops import build_ops, op_column, op_names
from overlapviz.backends.sim.pageable_note import pageable_spread_note
from overlapviz.backends.sim.profile import DeviceProfile, ProfileError, available_profiles, load_profile, user_profiles
from overlapviz.backends.sim.timeline_columns import HostCalls, Timeline
from overlapviz.core.cancel import CancelToken
from overlapviz.core.config import PipelineConfig
from overlapviz.core.config.pinning import check_pinned_request, pipeline_pinned_bytes
from overlapviz.core.run_errors import BackendError, RunCancelled
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import UNKNOWN, MemoryKind, OpKind, Trace, Unit

DEFAULT_PROFILE = "h200"


class SimBackend:
    """The event-driven GPU model (see `overlapviz.backends.sim.engine`)."""

    name = "sim"

    def __init__(self) -> None:
        self._profiles: dict[str, DeviceProfile] = {}

    def profile(self, key: str | None = None) -> DeviceProfile:
        """The device profile `key` (default: the H200), read once."""
        key = key or DEFAULT_PROFILE
        if key not in self._profiles:
            try:
                self._profiles[key] = load_profile(key)
            except ProfileError as error:
                raise BackendError(str(error)) from error
        return self._profiles[key]

    def devices(self) -> list[DeviceInfo]:
        """Every simulated profile, the H200 first, then the user's own (such as calibrated ones)."""
        keys = sorted(available_profiles(), key=lambda key: (key != DEFAULT_PROFILE, key)) + user_profiles()
        return [self._device_info(self.profile(key)) for key in keys]

    def run(self, config: PipelineConfig, device: str | None = None, cancel: CancelToken | None = None) -> Trace:
        """Simulate `config` on the profile `device`.

        Raises
        ------
        BackendError
            The profile is unknown, or the pipeline would pin more of the host's RAM than the
            guard allows (`overlapviz.core.config.pinning`); the message says why. Also when the
            model's timeline breaks one of its rules (`overlapviz.backends.sim.invariants`):
            a wrong trace is never returned.
        """
        profile = self.profile(device)
        try:
            check_pinned_request(pipeline_pinned_bytes(config), profile.host_ram_bytes)
        except ValueError as error:  # PinnedMemoryRefused, or a malformed share setting
            raise BackendError(str(error)) from None
        try:
            ops = build_ops(config, profile)
        except ValueError as error:  # the profile has no measurements of this kind
            raise BackendError(str(error)) from None
        before, after = host_alloc_calls(config, profile)
        after = host_read_calls(config, profile) + after  # read the output before any buffer is freed
        graph_op_ns = graph_launch_op_ns(config, profile, len(ops))
        model = GpuModel(profile, ops, before, after, graph_op_ns, peer_access=config.peer_access)
        try:
            timeline = model.run(should_stop=(lambda: cancel.cancelled) if cancel else None)
        except InterruptedError:
            raise RunCancelled("run cancelled") from None
        check_timeline(ops, timeline)
        trace = to_trace(config, profile, ops, timeline)
        caveat = pageable_spread_note(trace, profile)
        return trace if caveat is None else trace.with_meta(caveat=caveat)

    def bandwidth_sweep(
        self,
        sizes: Sequence[int] = SWEEP_SIZES,
        kinds: Sequence[str] | None = None,
        device: str | None = None,
    ) -> list[BandwidthPoint]:
        """H2D and D2H bandwidth by transfer size on the profile `device` (see `bandwidth_sweep`).

        Without `kinds`, every kind of the sweep the profile has rates for.

        Raises
        ------
        BackendError
            The profile is unknown, or a size or memory kind is not valid.
        """
        try:
            return bandwidth_sweep(self.profile(device), sizes, kinds)
        except ValueError as error:
            raise BackendError(str(error)) from None

    @staticmethod
    def _device_info(profile: DeviceProfile) -> DeviceInfo:
        return DeviceInfo(profile.key, profile.name, simulated=True, facts=profile.facts())


def graph_launch_op_ns(config: PipelineConfig, profile: DeviceProfile, ops: int) -> float | None:
    """Host nanoseconds per op inside cudaGraphLaunch when `config` runs as a CUDA Graph, else None."""
    if not config.graph or profile.host_kinds is None:
        return None
    return profile.host_kinds.graph_launch_ns(ops)


def _call_devices(op_devices: npt.NDArray[np.int64], calls: HostCalls) -> npt.NDArray[np.int64]:
    """The GPU of each host call: that of the op it issued; one GPU's calls are all its own.

    With several GPUs a call that acts on one GPU without issuing an op (`cudaSetDevice`,
    `cudaEventRecord`, `cudaStreamWaitEvent`) is that GPU's; one that issued no op and acts on
    none (the final synchronize, an allocation) serves them all, so it has no GPU of its own
    (`UNKNOWN`), as `overlapviz.core.devices.figures` reads it.
    """
    if not op_devices.any():
        return np.zeros(len(calls), dtype=np.int64)
    return np.where(calls.device >= 0, calls.device, UNKNOWN)


def to_trace(config: PipelineConfig, profile: DeviceProfile, ops: Sequence[Op], timeline: Timeline) -> Trace:
    """Turn the model's timeline into a `Trace`: device ops first (in issue order), then host calls.

    Built column by column: a 65,536-chunk run has 4 x 10^5 spans, too many to add one by
    one, and each column is read from the ops without one long call (see `op_column`).
    """
    calls = timeline.host_calls
    names = sorted(op_names(ops) | set(calls.names))
    name_index = {name: n for n, name in enumerate(names)}
    op_chunks = op_column(ops, "chunk")
    op_devices = op_column(ops, "device")
    no_time = np.full(len(calls), UNKNOWN)

    def both(device: npt.ArrayLike, host: npt.ArrayLike) -> Any:
        return np.concatenate([np.asarray(device), np.asarray(host)])

    columns = {
        "kind": both(op_column(ops, "kind"), np.full(len(calls), OpKind.API)),
        "unit": both(op_column(ops, "unit"), np.full(len(calls), Unit.HOST)),
        "stream": both(op_column(ops, "stream"), np.full(len(calls), -1)),
        "chunk": both(op_chunks, np.where(calls.op >= 0, op_chunks[np.maximum(calls.op, 0)], -1)),
        "enqueue_ns": both(np.rint(timeline.enqueue_ns), no_time),
        "ready_ns": both(np.rint(timeline.ready_ns), no_time),
        "start_ns": both(np.rint(timeline.start_ns), np.rint(calls.start_ns)),
        "end_ns": both(np.rint(timeline.end_ns), np.rint(calls.end_ns)),
        "bytes": both(op_column(ops, "nbytes"), np.zeros(len(calls))),
        "memory": both(op_column(ops, "memory"), np.full(len(calls), MemoryKind.NONE)),
        "name": both(
            op_column(ops, "name", convert=name_index.__getitem__),
            np.array([name_index[name] for name in calls.names], dtype=np.int64)[calls.name],
        ),
        "op": both(np.full(len(ops), -1), calls.op),
        "device": both(op_devices, _call_devices(op_devices, calls)),
        "thread": np.zeros(len(ops) + len(calls)),  # the model has one host thread
    }
    meta = TraceMeta(
        backend="sim",
        device=profile.key,
        device_name=profile.name,
        timing="model",
        simulated=True,
        config=config.to_dict(),
        version=__version__,
        device_facts=profile.facts(),
    )
    return Trace(columns, tuple(names), meta)
