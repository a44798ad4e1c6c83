"""The name of a trace's GPUs as a line of text shows it: a few of them, and how many more.

An imported trace's meta joins the names of all its GPUs (`per_device.NAME_SEPARATOR`); with a
thousand GPUs that is a line of tens of thousands of characters, which a caption would be as
wide as, and a terminal would wrap over a screen. Only the first `NAMED_GPUS` are named.
"""

from __future__ import annotations

from overlapviz.core.devices.figures import NAME_SEPARATOR
from overlapviz.core.i18n import ncount

NAMED_GPUS = 4


def shown_device_name(name: str) -> str:
    """`name` (the meta's ``device_name``) with the GPUs past the first `NAMED_GPUS` counted, not named."""
    names = name.split(NAME_SEPARATOR)
    if len(names) <= NAMED_GPUS:
        return name
    return ncount(
        "{names} and {count} more GPU",
        "{names} and {count} more GPUs",
        len(names) - NAMED_GPUS,
        names=NAME_SEPARATOR.join(names[:NAMED_GPUS]),
    )
