"""A setting's value in the user's language, for captions and summaries (the English is the value itself).

The values stay what the command line and the files take (``--memory pinned``); a caption in
Chinese says 页锁定, as the controls do.
"""

from __future__ import annotations

from overlapviz.core.config.kinds import HostMemory, IssueOrder
from overlapviz.core.i18n import pgettext


def memory_words(memory: HostMemory) -> str:
    """How the host buffers are allocated, as a caption names it."""
    words = {
        HostMemory.PINNED: pgettext("host memory", "pinned"),
        HostMemory.PAGEABLE: pgettext("host memory", "pageable"),
        HostMemory.REGISTERED: pgettext("host memory", "registered"),
        HostMemory.WRITE_COMBINED: pgettext("host memory", "write-combined"),
        HostMemory.MAPPED: pgettext("host memory", "mapped"),
        HostMemory.MANAGED: pgettext("host memory", "managed"),
        HostMemory.MANAGED_PREFETCH: pgettext("host memory", "managed-prefetch"),
        HostMemory.STAGED: pgettext("host memory", "staged"),
    }
    return words[memory]


def order_words(order: IssueOrder) -> str:
    """The issue order, as a caption names it."""
    words = {IssueOrder.DEPTH: pgettext("issue order", "depth"), IssueOrder.BREADTH: pgettext("issue order", "breadth")}
    return words[order]
