"""Every pipeline setting, declared once: the order here is the command line's and the docs'.

`PipelineConfig`'s fields take their types and defaults from here (its field order is older,
and kept: it is the key order of every file written). `help` is marked for translation, said
with `_` where the command line writes it, and ``{default}`` in it is the default as written
there; in `doc` (English: the docs' table), ``{range}`` is "low to high" and ``{choices}`` the
choice names in backticks.
"""

from __future__ import annotations

from enum import StrEnum

from overlapviz.core.config.kinds import GpuLayout, HostAlloc, HostMemory, IssueOrder, KernelKind, StreamKind
from overlapviz.core.config.setting import Control, Setting
from overlapviz.core.config.values import MAX_SIZE_BYTES, MIB, MIN_SIZE_BYTES
from overlapviz.core.i18n import N_

MAX_CHUNKS = 65536
MAX_STREAMS = 128
MAX_ITERS = 1_000_000
MAX_RING_SLOTS = 64
MAX_GPUS = 2  # the peer stage sends each chunk from GPU 0 to GPU 1: no shape for more yet

SIZE_BYTES = Setting(
    "size_bytes", int, 256 * MIB, flag="size", key="size", unit="bytes", control=Control.SLIDER,
    low=MIN_SIZE_BYTES, high=MAX_SIZE_BYTES,
    help=N_("total size, e.g. 256MiB, 1GiB"),
    doc='total size: `"256MiB"`, `"1GiB"`, `"64KiB"` or a byte count (a whole number of float32 values)',
)  # fmt: skip
CHUNKS = Setting(
    "chunks", int, 16, flag="chunks", unit="chunks", control=Control.SLIDER, low=1, high=MAX_CHUNKS,
    help=N_("chunks (default {default})"),
    doc="{range}, and at most the number of float32 values; the last chunk also takes the remainder",
)  # fmt: skip
STREAMS = Setting(
    "streams", int, 4, flag="streams", unit="streams", control=Control.SLIDER, low=1, high=MAX_STREAMS,
    help=N_("streams (default {default})"), doc="{range}",
)  # fmt: skip
MEMORY = Setting(
    "memory", HostMemory, HostMemory.PINNED, flag="memory", control=Control.CHOICE,
    help=N_("host memory (default {default})"), doc="{choices} ([glossary.md](glossary.md))",
)  # fmt: skip
ORDER = Setting(
    "order", IssueOrder, IssueOrder.DEPTH, flag="order", control=Control.CHOICE,
    help=N_("issue order (default {default})"),
    doc="`depth` (H2D, kernel, D2H per chunk) or `breadth` (all H2D, all kernels, all D2H)",
)  # fmt: skip
STREAM_KIND = Setting(
    "stream_kind", StreamKind, StreamKind.NONBLOCKING, flag="stream-kind", control=Control.CHOICE,
    help=N_("non-blocking streams, or every op on the legacy default stream (default {default})"),
    doc="`nonblocking`, or `legacy` (every op on the legacy default stream)",
)  # fmt: skip
KERNEL = Setting(
    "kernel", KernelKind, KernelKind.FMA, flag="kernel",
    help=N_("an FMA chain, or the sin/cos kernel of Harris 2012 (default {default})"),
    doc="`fma` (an FMA chain of `iters` steps per element) or `sincos` (the kernel of Harris 2012)",
)  # fmt: skip
ITERS = Setting(
    "iters", int, 1860, flag="kernel-iters", unit="iterations", control=Control.SLIDER, low=0, high=MAX_ITERS,
    help=N_("FMA iterations per element (default {default})"),
    doc="FMA iterations per element, {range} (0: copies only; ignored by `sincos`)",
)  # fmt: skip
FRESH_OUTPUT = Setting(
    "fresh_output", bool, False, flag="fresh-output",
    help=N_("copy back into a never-touched buffer each run; needs --memory pageable (default {default})"),
    doc="`true`: each run copies back into a never-touched buffer (page faults); needs `memory = \"pageable\"`",
)  # fmt: skip
HOST_ALLOC = Setting(
    "host_alloc", HostAlloc, HostAlloc.REUSE, flag="host-alloc",
    help=N_("allocate the host buffers once before timing (reuse), or inside every run (per-run); default {default}"),
    doc="`reuse`: the two host buffers are allocated once, before timing; `per-run`: the run allocates them"
    " before it issues anything and frees them after the final synchronize (pinned:"
    " `cudaMallocHost`/`cudaFreeHost`; pageable: `malloc` and the first touch/`free`; registered: `malloc`,"
    " first touch, `cudaHostRegister`/`cudaHostUnregister`, `free`)",
)  # fmt: skip
RING_SLOTS = Setting(
    "ring_slots", int, 2, flag="ring-slots", unit="slots", control=Control.SLIDER, low=1, high=MAX_RING_SLOTS,
    help=N_("pinned slots of the staging ring; needs --memory staged (default {default})"),
    doc="the pinned slots of the staging ring, {range} (used only with `memory = \"staged\"`)",
)  # fmt: skip
GRAPH = Setting(
    "graph", bool, False, flag="graph", control=Control.SWITCH,
    help=N_("issue the pipeline as one CUDA Graph (default {default})"),
    doc="`true`: the pipeline is captured once and launched as one CUDA Graph per run; not with `pageable`,"
    " `managed-prefetch` or `staged` memory, the legacy stream or 2 GPUs",
)  # fmt: skip
GPUS = Setting(
    "gpus", int, 1, flag="gpus", unit="GPUs", control=Control.CHOICE, low=1, high=MAX_GPUS,
    only_with_several_gpus=True, backend_limits=(("cupy", N_("runs one GPU")),),
    help=N_(
        "1, or 2 GPUs of one host, shared as --gpu-layout says (default {default}; two GPUs need a profile with a"
        " peer link: h200x2-nvlink, h200x2-pcie, h200x2-pcie-switch)"
    ),
    doc="1 or 2: two GPUs of one host share the work as `gpu_layout` says (a model with a peer link only)",
)  # fmt: skip
GPU_LAYOUT = Setting(
    "gpu_layout", GpuLayout, GpuLayout.CHAIN, flag="gpu-layout", control=Control.CHOICE,
    only_with_several_gpus=True,
    help=N_(
        "with --gpus 2: chain sends each chunk H2D to GPU 0, its kernel, a peer copy to GPU 1, its kernel,"
        " D2H from GPU 1; split runs chunk c H2D, kernel, D2H on GPU c %% 2, both GPUs on one portable pinned"
        " buffer (default {default})"
    ),
    doc="with 2 GPUs: `chain` (every chunk through both, a peer copy between) or `split` (chunk *c* on GPU *c*"
    " mod 2)",
)  # fmt: skip
PEER_ACCESS = Setting(
    "peer_access", bool, True, flag="peer-access", control=Control.SWITCH, only_with_several_gpus=True,
    help=N_(
        "with --gpus 2 in a chain: peer copies GPU to GPU over NVLink or PCIe (on), or staged by the driver"
        " through the host (off); default {default}"
    ),
    doc="with 2 GPUs in a chain: `false` stages each peer copy through host memory",
)  # fmt: skip

SETTINGS: tuple[Setting[object], ...] = (
    SIZE_BYTES, CHUNKS, STREAMS, MEMORY, ORDER, STREAM_KIND, KERNEL, ITERS, FRESH_OUTPUT, HOST_ALLOC, RING_SLOTS,
    GRAPH, GPUS, GPU_LAYOUT, PEER_ACCESS,
)  # fmt: skip
BY_NAME: dict[str, Setting[object]] = {setting.name: setting for setting in SETTINGS}

DEFAULT_SIZE_BYTES = SIZE_BYTES.default
DEFAULT_CHUNKS = CHUNKS.default
DEFAULT_STREAMS = STREAMS.default
DEFAULT_ITERS = ITERS.default
DEFAULT_RING_SLOTS = RING_SLOTS.default

# Settings that exist only with several GPUs: left out of `to_dict` at their one-GPU values, so
# that the files and traces of one-GPU runs read as they always have (and the layout at the
# chain, the only layout two-GPU files had before there was a choice).
MULTI_GPU_DEFAULTS: dict[str, object] = {s.name: s.default for s in SETTINGS if s.only_with_several_gpus}


def checking_order() -> tuple[Setting[object], ...]:
    """The settings in the order their values are checked: every choice, then numbers, then switches."""
    return tuple(sorted(SETTINGS, key=_checking_phase))


def _checking_phase(setting: Setting[object]) -> int:
    if issubclass(setting.kind, StrEnum):
        return 0
    return 2 if setting.kind is bool else 1
