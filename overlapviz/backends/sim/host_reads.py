"""The host reading the output buffer after the run, where the kind of memory makes that slow.

Where the output lies after the final synchronize decides what reading it costs the host:

- write-combined memory is uncached for the host, so reads of it are slow where the flag is
  honoured (measured on the H200 host: no slower than pinned memory; see docs/model.md);
- managed memory the kernels wrote stays on the GPU until the host touches it: each page
  faults back as the host reads it;
- managed memory prefetched back to the host is read like any host memory.

The read is a host span after the synchronize, timed at the profile's measured rate: the
pipeline's own ops are what they are, and the cost the kind moves onto the host is shown
beside them. Other kinds add nothing (their host reads cost what they always do).
"""

from __future__ import annotations

from overlapviz.backends.sim.alloc import HostCallCost
from overlapviz.backends.sim.profile import DeviceProfile
from overlapviz.core.config import HostMemory, PipelineConfig
from overlapviz.core.config.pipeline_plan import HOST_READ_NAME


def host_read_calls(config: PipelineConfig, profile: DeviceProfile) -> list[HostCallCost]:
    """The host's read of the whole output buffer after the run, where `config`'s memory kind has one."""
    kinds = profile.host_kinds
    if kinds is None:
        return []
    rates = {
        HostMemory.WRITE_COMBINED: kinds.wc_host_read_gbps,
        HostMemory.MANAGED: kinds.managed_host_read_gbps,
        HostMemory.MANAGED_PREFETCH: kinds.prefetched_host_read_gbps,
    }
    rate = rates.get(config.memory)
    return [] if rate is None else [(HOST_READ_NAME, config.size_bytes / rate)]
