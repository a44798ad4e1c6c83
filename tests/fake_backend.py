"""A tiny backend for session and command-line tests: a fixed schedule, every call recorded."""

from __future__ import annotations

from overlapviz.backends.base import DeviceInfo
from overlapviz.core.cancel import CancelToken
from overlapviz.core.config import PipelineConfig
from overlapviz.core.config.pipeline_plan import memory_kind
from overlapviz.core.run_errors import BackendError
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import MemoryKind, OpKind, Trace, TraceBuilder, Unit

STAGES = ((OpKind.H2D, Unit.H2D_ENGINE, "memcpy HtoD"), (OpKind.KERNEL, Unit.COMPUTE, "kernel"),
          (OpKind.D2H, Unit.D2H_ENGINE, "memcpy DtoH"))


class FakeBackend:
    """Each stage takes 1000 ns per chunk; every unit runs its ops back to back in issue order."""

    def __init__(
        self, name: str = "sim", devices: tuple[str, ...] = ("fake-gpu", "fake-old"), simulated: bool = True
    ) -> None:
        self.name = name
        self.keys = devices
        self.simulated = simulated
        self.calls: list[tuple[PipelineConfig, str | None, CancelToken | None]] = []

    def devices(self) -> list[DeviceInfo]:
        facts = {"copy_engines": 2}
        return [DeviceInfo(key, f"Fake {key}", simulated=self.simulated, facts=facts) for key in self.keys]

    def run(self, config: PipelineConfig, device: str | None = None, cancel: CancelToken | None = None) -> Trace:
        self.calls.append((config, device, cancel))
        if cancel is not None:
            cancel.check()
        builder = TraceBuilder()
        free = {unit: 0 for _, unit, _ in STAGES}
        memory = memory_kind(config.memory)
        for chunk in range(config.chunks):
            done = 0
            for kind, unit, name in STAGES:
                start = max(free[unit], done)
                done = free[unit] = start + 1000
                copy = kind is not OpKind.KERNEL
                row = builder.add(kind, unit, start, done, name=name, stream=config.stream_of(chunk), chunk=chunk,
                                  nbytes=config.chunk_bytes if copy else 0,
                                  memory=memory if copy else MemoryKind.NONE)
                builder.add(OpKind.API, Unit.HOST, start, start + 10, name="call", op=row)
        meta = {
            "backend": self.name, "device": device or self.keys[0], "device_name": f"Fake {device or self.keys[0]}",
            "timing": "model" if self.simulated else "cupti", "config": config.to_dict(), "version": "test",
            "simulated": self.simulated,
            "device_facts": {"copy_engines": 2},
        }
        return builder.build(TraceMeta.from_dict(meta), origin_ns=0)


def fake_loader(backends: dict[str, FakeBackend]):
    """A stand-in for registry.load_backend that knows only `backends`."""

    def load_backend(name: str) -> FakeBackend:
        if name not in backends:
            raise BackendError(f"the {name} backend is not here")
        return backends[name]

    return load_backend
