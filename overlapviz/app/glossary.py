"""The words a learner meets in the app, each with what it means and where the app shows it.

The Help menu's glossary shows these (`glossary_in_language`); they are kept apart from Qt so
that a test can check that every control, memory kind, figure and finding is explained and
placed. The entries are written in English, the source of their translations (domain
``overlapviz-content``, extracted by ``tools/content_messages.py``). The figures'
and findings' entries are in `app.glossary_findings`.
"""

from __future__ import annotations

from overlapviz.app.glossary_findings import FIGURE_TERMS, FINDING_TERMS
from overlapviz.app.glossary_term import Term
from overlapviz.core.i18n import content_text
from overlapviz.view.lane_ink import INK_MEANING

__all__ = ["GLOSSARY", "Term", "glossary_in_language"]

MEMORY_TERMS: tuple[Term, ...] = (
    Term("Pinned memory",
         "Host memory allocated page-locked (cudaMallocHost): the copy engine reads and writes it directly, so a"
         " copy from it can run while a kernel runs.",
         "Controls \u25b8 Host memory \u25b8 Pinned; a copy's tooltip says \u201cHost memory pinned\u201d."),
    Term("Pageable memory",
         "Ordinary host memory (malloc, numpy). The driver first copies it into a pinned staging buffer, and the"
         " host thread waits in the call, so copies overlap little.",
         "Controls \u25b8 Host memory \u25b8 Pageable; the host lane shows the waiting as \u201cHost blocked\u201d."),
    Term("Registered memory",
         "Existing host memory pinned after the fact (cudaHostRegister): copies behave as from pinned memory.",
         "Controls \u25b8 Host memory \u25b8 Registered; a copy's tooltip says \u201cHost memory registered\u201d."),
    Term("Write-combined memory",
         "Pinned memory the CPU writes without caching (cudaHostAllocWriteCombined): fast for the device to read,"
         " slow for the CPU to read back.",
         "Controls \u25b8 Host memory \u25b8 Write-combined; a copy's tooltip says \u201cHost memory"
         " write-combined\u201d, and the host lane shows the slow read of the output."),
    Term("Mapped (zero-copy) memory",
         "Pinned host memory the kernels read and write directly across the link (cudaHostAllocMapped): no copies"
         " at all, so the copy engines stay idle and every touch crosses PCIe.",
         "Controls \u25b8 Host memory \u25b8 Mapped; the kernels take longer and the copy lanes stay empty."),
    Term("Managed (unified) memory",
         "One pointer for host and GPU (cudaMallocManaged); the driver migrates pages on demand, so a kernel's first"
         " touch of a page faults and the kernel waits while it moves.",
         "Controls \u25b8 Host memory \u25b8 Managed; the kernels grow by the page faults, and the host's read of"
         " the output shows on the host lane."),
    Term("Managed memory with prefetch",
         "Managed memory moved ahead of the kernels with cudaMemPrefetchAsync, to the GPU before each kernel and"
         " back after: the migrations run as ops on a copy engine instead of faults inside the kernels.",
         "Controls \u25b8 Host memory \u25b8 Managed + prefetch; prefetches are drawn on the copy engine of their"
         " direction."),
    Term("Staged ring",
         "Pageable data the host thread copies itself into a ring of reused pinned slots, from which the"
         " asynchronous copies go: overlap without pinning the whole data set. Only the slots are pinned.",
         "Controls \u25b8 Host memory \u25b8 Staged ring, with Controls \u25b8 Ring slots; the host lane shows the"
         " host's own copies."),
)  # fmt: skip

CONTROL_TERMS: tuple[Term, ...] = (
    Term("Stream",
         "A queue of work the host issues in order; ops of different streams may run at the same time. Chunk c"
         " runs on stream c mod the number of streams.",
         "Controls \u25b8 Streams; the timeline's stream lanes."),
    Term("Chunk",
         "One of the equal pieces the buffer is cut into: each goes H2D, through the kernel and D2H, so one"
         " chunk's copy can overlap another's kernel. Too few leave fill and drain; too many cost host calls.",
         "Controls \u25b8 Chunks; each op's tooltip names its chunk."),
    Term("Total size",
         "The bytes of float32 values copied to the device, worked on and copied back.",
         "Controls \u25b8 Total size; the caption and the tooltips give each copy's bytes."),
    Term("Kernel work",
         "How much arithmetic the kernel does per element (FMA iterations); 0 copies only. More work makes the"
         " kernels longer than the copies.",
         "Controls \u25b8 Kernel work, with the kernel's time per chunk under the slider."),
    Term("CUDA Graph",
         "A sequence of copies and kernels captured once and launched as one unit (cudaGraphLaunch): the host pays"
         " one call per run instead of one per op.",
         "Controls \u25b8 CUDA Graph; the host lane shows the one cudaGraphLaunch call."),
    Term("GPUs and layout",
         "With two GPUs of one host the work is shared: in a chain every chunk goes through both (a peer copy"
         " between them); split, chunk c runs on GPU c mod 2 alone.",
         "Controls \u25b8 GPUs and Controls \u25b8 Layout; each GPU has its group of lanes."),
    Term("Peer access",
         "With cudaDeviceEnablePeerAccess one GPU copies straight to another over the link that joins them;"
         " without it the driver stages each peer copy through host memory.",
         "Controls \u25b8 Peer access (two GPUs in a chain); the peer copy lane."),
    Term("Depth first / breadth first",
         "The order the host issues the work: depth first issues H2D, kernel and D2H of chunk 0, then of chunk 1;"
         " breadth first issues every H2D, then every kernel, then every D2H. On a GPU with one hardware queue the"
         " order decides what can overlap.",
         "Controls \u25b8 Issue order; the host lane shows the calls in the order issued."),
    Term("Legacy default stream",
         "The stream CUDA uses when none is named. It waits for every other blocking stream and they wait for it,"
         " so work on it does not overlap.",
         "Controls \u25b8 Streams used \u25b8 Legacy default; the timeline's stream lanes."),
    Term("Device",
         "What the pipeline runs on: the real GPU through CuPy when there is one, or a model of a GPU (a profile"
         " such as the H200 or the Tesla C2050) that simulates its engines.",
         "Controls \u25b8 Run on; the status bar names the device and says \u201csimulated\u201d for a model."),
)  # fmt: skip

CONCEPT_TERMS: tuple[Term, ...] = (
    Term("Hardware queue",
         "The device's work queues that carry commands from the streams to the engines. Hyper-Q devices have many;"
         " older ones (Fermi) one, so ops of independent streams can wait on each other (false dependencies).",
         "The device picker (Tesla C2050: one queue); the lanes per hardware unit show what ran where."),
    Term("Partial bar",
         f"{INK_MEANING} So a lane of many short ops never looks busier or emptier than it was; zoom in and the"
         " ops come back one by one.",
         "The timeline, zoomed out on many short ops; the legend's tooltip."),
)  # fmt: skip

GLOSSARY: tuple[Term, ...] = MEMORY_TERMS + CONTROL_TERMS + CONCEPT_TERMS + FIGURE_TERMS + FINDING_TERMS


def glossary_in_language() -> tuple[Term, ...]:
    """The glossary as the Help shows it: every entry's words in the active language.

    A finding's term is its code, which no catalogue translates: it stays as it is.
    """
    return tuple(Term(content_text(t.term), content_text(t.meaning), content_text(t.where)) for t in GLOSSARY)
