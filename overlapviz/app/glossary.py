"""The words a learner meets in the app, each with what it means and where the app shows it.

The Help menu's glossary shows these; they are kept apart from Qt so that a test can check
that every term is explained and placed.
"""

from __future__ import annotations

from dataclasses import dataclass

from overlapviz.view.lane_ink import INK_MEANING


@dataclass(frozen=True, slots=True)
class Term:
    """One glossary entry."""

    term: str
    meaning: str
    where: str  # where the app shows it


GLOSSARY: tuple[Term, ...] = (
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
         " slow for the CPU to read back. Seen in traces recorded by other tools.",
         "A copy's tooltip says \u201cHost memory write-combined\u201d in an opened trace."),
    Term("Depth first / breadth first",
         "The order the host issues the work: depth first issues H2D, kernel and D2H of chunk 0, then of chunk 1;"
         " breadth first issues every H2D, then every kernel, then every D2H. On a GPU with one hardware queue the"
         " order decides what can overlap.",
         "Controls \u25b8 Issue order; the host lane shows the calls in the order issued."),
    Term("Legacy default stream",
         "The stream CUDA uses when none is named. It waits for every other blocking stream and they wait for it,"
         " so work on it does not overlap.",
         "Controls \u25b8 Streams used \u25b8 Legacy default; the timeline's stream lanes."),
    Term("Hardware queue",
         "The device's work queues that carry commands from the streams to the engines. Hyper-Q devices have many;"
         " older ones (Fermi) one, so ops of independent streams can wait on each other (false dependencies).",
         "The device picker (Tesla C2050: one queue); the lanes per hardware unit show what ran where."),
    Term("Partial bar",
         f"{INK_MEANING} So a lane of many short ops never looks busier or emptier than it was; zoom in and the"
         " ops come back one by one.",
         "The timeline, zoomed out on many short ops; the legend's tooltip."),
)  # fmt: skip
