"""Host buffers allocated inside the run: the calls the host makes, and what each costs.

With ``host_alloc = "per-run"`` the run gets its two host buffers (input and output, each
``size_bytes``) before it issues anything and gives them back after the final synchronize:

- pinned: ``cudaMallocHost`` each (it pins every page before it returns); ``cudaFreeHost``;
- pageable: ``malloc`` (addresses only) and the host's first touch, which is when the OS
  hands the pages over; ``free``. A fresh output buffer (``fresh_output``) is not touched:
  its pages fault in during the D2H copies instead;
- registered: ``malloc``, first touch, ``cudaHostRegister``; ``cudaHostUnregister``, ``free``.

These are host spans on the host lane, with no device op. The RAM guard counts what the
pipeline pins (`overlapviz.core.config.pinning.pipeline_pinned_bytes`), whenever it is allocated.
"""

from __future__ import annotations

from overlapviz.backends.sim.profile import DeviceProfile
from overlapviz.core.config import HostAlloc, HostMemory, PipelineConfig
from overlapviz.core.config.pinning import HOST_BUFFERS

HostCallCost = tuple[str, float]  # (call name, nanoseconds)


def host_alloc_calls(config: PipelineConfig, profile: DeviceProfile) -> tuple[list[HostCallCost], list[HostCallCost]]:
    """Return the calls before the first issue and after the final synchronize, in order."""
    if config.host_alloc is HostAlloc.REUSE:
        return [], []
    n = config.size_bytes
    before: list[HostCallCost] = []
    after: list[HostCallCost] = []
    for buffer in HOST_BUFFERS:
        if config.memory is HostMemory.PINNED:
            before.append(("cudaMallocHost", profile.alloc_ns(profile.pin_alloc_ns_per_byte, n)))
            after.append(("cudaFreeHost", profile.alloc_ns(profile.pin_free_ns_per_byte, n)))
            continue
        before.append(("malloc", profile.malloc_us * 1e3))
        if not (buffer == "output" and config.fresh_output):
            before.append(("first touch", profile.alloc_ns(profile.touch_ns_per_byte, n)))
        if config.memory is HostMemory.REGISTERED:
            before.append(("cudaHostRegister", profile.alloc_ns(profile.register_ns_per_byte, n)))
            after.append(("cudaHostUnregister", profile.alloc_ns(profile.unregister_ns_per_byte, n)))
        after.append(("free", profile.alloc_ns(profile.free_ns_per_byte, n)))
    return before, after
