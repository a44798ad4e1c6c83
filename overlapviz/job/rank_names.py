"""Ranks named in a sentence, however many: ``Rank 5``, ``Ranks 0, 2, 4 … 14 (8 of 16)``."""

from __future__ import annotations

from collections.abc import Sequence

from overlapviz.core.i18n import _

SHOWN_IN_FULL = 6  # more ranks than this: the first three, an ellipsis, the last


def ranks_text(names: Sequence[int], of: int) -> str:
    """`names` (rank numbers) of a job of `of` ranks, the list shortened and counted when long."""
    if len(names) == 1:
        return _("Rank {rank}").format(rank=names[0])
    listed = [str(n) for n in names]
    if len(listed) > SHOWN_IN_FULL:
        listed = [*listed[:3], "\u2026", listed[-1]]
    shown = ", ".join(listed).replace(", \u2026,", " \u2026")
    return _("Ranks {ranks} ({count} of {of})").format(ranks=shown, count=len(names), of=of)
