"""The glossary's entries for the figures of the metrics panel and for the findings.

A figure that `core.analysis.metrics.METRIC_DEFINITIONS` defines takes its meaning from there, so that
its tooltip, ``run --help`` and the glossary say one thing; docs/metrics.md says each at length.
"""

from __future__ import annotations

from overlapviz.app.glossary_term import Term
from overlapviz.core.analysis.metrics import FIGURE_NAMES, METRIC_DEFINITIONS

PANEL = "The metrics panel"
FINDINGS = "The Findings list beside the timeline (its tooltip names the code); clicking it outlines"

# Where the app shows each figure that METRIC_DEFINITIONS defines.
_DEFINED_WHERE: dict[str, str] = {
    "copy_hidden": f"{PANEL} \u25b8 Copy time hidden.",
    "comm_hidden": f"{PANEL} \u25b8 Communication hidden, for a trace that has communication.",
    "engines_together": f"{PANEL} \u25b8 Engines busy together.",
    "efficiency": f"{PANEL} \u25b8 Efficiency.",
    "lower_bound": f"{PANEL} \u25b8 Efficiency, on its second line.",
    "time_saved": f"{PANEL} \u25b8 Time saved.",
    "wall": f"{PANEL} \u25b8 Wall.",
    "best_for_chunking": "The too-few-chunks finding measures from it; `overlapviz analyze --json` gives it.",
    "pinned": "The host line of `overlapviz run` (RAM pinned); a run that would pin too much is refused in the"
    " window with the bytes it asked for.",
}


def _defined(key: str) -> Term:
    name = FIGURE_NAMES.source(key)  # the glossary is English here; `glossary_in_language` translates it
    return Term(name[:1].upper() + name[1:], METRIC_DEFINITIONS.source(key) + ".", _DEFINED_WHERE[key])


FIGURE_TERMS: tuple[Term, ...] = (
    Term("Makespan", "From the first device op's start to the last device op's end: the device's part of the run.",
         f"{PANEL} \u25b8 Makespan; the caption of an exported picture."),
    Term("Serial", "The device ops' durations added up: how long the run would take with nothing overlapped.",
         f"{PANEL} \u25b8 Serial."),
    *(_defined(key) for key in METRIC_DEFINITIONS),
    Term("Host blocked",
         "The time the host thread waited inside API calls while their own ops already ran on the device:"
         " with pageable memory, nearly every copy's whole length.",
         f"{PANEL} \u25b8 Host blocked; the host lane paints it over the calls."),
    Term("Bandwidth (H2D, D2H)",
         "A copy direction's bytes over its busy time, in GB/s (10^9 bytes per second).",
         f"{PANEL} \u25b8 H2D bandwidth and D2H bandwidth; each copy's tooltip gives its own."),
    Term("Host issue",
         "The time the host spent issuing work: each issuing call and the caller's code up to the next, less the"
         " time blocked in them. The per-op cost of talking to the driver.",
         "The too-many-chunks and launch-bound findings quote it; `overlapviz analyze --json` gives it."),
    Term("Host alloc",
         "The time the host thread spent getting and giving back host memory (cudaMallocHost, cudaFreeHost,"
         " malloc, the first touch of fresh pages): zero when the buffers are allocated once, before the run.",
         f"{PANEL} \u25b8 Wall, on its second line; the host lane shows the allocation calls."),
    Term("Migrations (H2D, D2H)",
         "The pages of managed (unified) memory the driver moved between host and device, per direction: how many,"
         " their bytes and their time. They are not copies the program issued.",
         "The Unified memory lane; Copy time hidden of a run without copies counts them; `overlapviz analyze`"
         " prints them on its migrated line."),
    Term("Busy (utilisation)",
         "The share of the makespan during which at least one op of a kind (H2D, kernels, D2H, communication)"
         " ran: kernels side by side count once.",
         f"{PANEL} \u25b8 Busy."),
)  # fmt: skip

FINDING_TERMS: tuple[Term, ...] = (
    Term("host-blocked-pageable",
         "The host waited inside pageable copies for a quarter of the run or more: the driver stages them through"
         " its own pinned buffer and returns only when the data has moved.",
         f"{FINDINGS} the calls and their copies."),
    Term("sync-after-copy",
         "A synchronize came right after most copies and the host waited in it: each copy had to finish before"
         " the program went on (PyTorch's non_blocking=False).",
         f"{FINDINGS} the copies and the synchronize calls."),
    Term("single-stream",
         "Every device op ran on one stream, with more than one chunk: each op waited for the one before it.",
         f"{FINDINGS} all device ops."),
    Term("legacy-default-stream",
         "Ops on the legacy default stream and on other streams held each other back, ready but waiting, for a"
         " tenth of the run or more.",
         f"{FINDINGS} the ops that waited."),
    Term("copy-queue",
         "Copies of one direction waited for their engine, which runs one copy at a time, for a tenth of the run"
         " or more, in a run that lost time: more streams do not help.",
         f"{FINDINGS} the copies that waited."),
    Term("small-copies",
         "Many copies under 64 KiB whose fixed cost each outweighs their bytes: packed into one buffer they would"
         " pay it once.",
         f"{FINDINGS} the copies and their calls."),
    Term("staged-peer-copy",
         "Data went from one GPU to another through host memory, a D2H copy then an H2D copy of as many bytes,"
         " where one peer copy would cross once.",
         f"{FINDINGS} the paired copies."),
    Term("false-dependency",
         "Ready ops waited while the hardware they needed stood idle: the hardware queues hand ops out in issue"
         " order, so an op sat behind another stream's op that was not ready.",
         f"{FINDINGS} the ops that waited."),
    Term("peer-bound",
         "The copies between GPUs took longer than the host copies and the kernels: the link between the GPUs"
         " sets the pace.",
         f"{FINDINGS} the peer copies."),
    Term("exposed-communication",
         "Communication (NCCL, RCCL) ran with no compute kernel beside it for a tenth of the run or more: time"
         " every GPU of the group waits.",
         f"{FINDINGS} the communication that ran alone."),
    Term("kernel-bound",
         "The kernels were busy well over the copies (1.2\u00d7 or more): faster copies would not shorten the run.",
         f"{FINDINGS} the kernels."),
    Term("copy-bound",
         "A copy direction was busy well over the kernels (1.2\u00d7 or more): the copies set the pace.",
         f"{FINDINGS} that direction's copies."),
    Term("too-few-chunks",
         "The fill and drain that so few chunks force cost a quarter of the run or more: more chunks would let"
         " the stages overlap sooner.",
         f"{FINDINGS} the first H2D copy and the last D2H copy."),
    Term("too-many-chunks",
         "The host needed most of the run to issue its calls and the device waited for them: fewer, larger"
         " chunks cut the calls.",
         f"{FINDINGS} the issuing calls."),
    Term("launch-bound",
         "In another program's trace, the GPU sat idle between ops while the host was issuing them: fewer,"
         " larger ops or a CUDA Graph cut the calls.",
         f"{FINDINGS} the issuing calls."),
    Term("gpu-idle",
         "In another program's trace, the GPU was busy less than a quarter of the run: the host's own work sets"
         " the pace, not the overlap of copies and kernels.",
         f"{FINDINGS} all device ops."),
    Term("page-fault-migrations",
         "The driver moved managed (unified) memory on page faults for a tenth of the run or more: prefetching"
         " (cudaMemPrefetchAsync) and placement hints (cudaMemAdvise) move it ahead.",
         f"{FINDINGS} the migrations, on the Unified memory lane."),
    Term("alloc-per-run",
         "Getting and giving back host memory took a quarter of the wall time or more: allocate the buffers once"
         " and reuse them.",
         f"{FINDINGS} the allocation and free calls."),
    Term("mapped-memory",
         "The kernels read and wrote mapped host memory across the link: their bytes and rate, the copy engines"
         " idle, and when zero-copy pays.",
         f"{FINDINGS} the kernels."),
    Term("managed-faults",
         "Managed memory without prefetch: the kernels brought their data over by page faults; prefetching is the"
         " way out.",
         f"{FINDINGS} the kernels and the host's read."),
    Term("prefetch-bound",
         "Managed memory with prefetch, and the prefetches ran half the run or more: the migrations, not the"
         " kernels, set the pace.",
         f"{FINDINGS} the prefetches."),
    Term("staging-host-bound",
         "A staging ring whose host copies took half the wall time or more: one thread copying every chunk sets"
         " the pace, and more slots cannot help.",
         f"{FINDINGS} the host copies."),
    Term("write-combined-read",
         "The host read the write-combined output back uncached, slowly: write-combined memory is for buffers the"
         " host only writes.",
         f"{FINDINGS} the host's read."),
    Term("graph-launch",
         "The pipeline ran as one CUDA Graph: the host's time in cudaGraphLaunch, per op; capturing is paid once.",
         f"{FINDINGS} the launch call."),
)  # fmt: skip
