"""What a PyTorch profiler copy's name says: its direction and the memory at either end.

Kineto names each copy from CUPTI's record as ``Memcpy KIND (SOURCE -> DESTINATION)``:
``Memcpy HtoD (Pinned -> Device)``, ``Memcpy DtoH (Device -> Pageable)``, ``Memcpy PtoP
(Device -> Device)``. The kinds and memory words are CUPTI's; ``A`` is a CUDA array, device
memory laid out for textures. ROCm builds write ``Host`` for the host's memory, which does not
say pinned or pageable, or roctracer's names (``CopyHostToDevice``), which say the direction
alone. A name of another form, or a word not listed here, reads as
unknown rather than failing: the copy is still a copy.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from overlapviz.importers.activity import CopyKind, HostMemory

_COPY_NAME = re.compile(r"Memcpy (?P<kind>\w+) \((?P<src>[\w ]+?) -> (?P<dst>[\w ]+?)\)")
# ROCm's names of HIP's copy operations (roctracer's), which say the direction alone.
_HIP_COPY_NAME = re.compile(r"Copy(?P<src>Host|Device)To(?P<dst>Host|Device)(2D)?")
_HIP_KINDS = {("Host", "Device"): CopyKind.H2D, ("Device", "Host"): CopyKind.D2H,
              ("Device", "Device"): CopyKind.D2D, ("Host", "Host"): CopyKind.H2H}  # fmt: skip
_KINDS = {
    "HtoD": CopyKind.H2D,
    "HtoA": CopyKind.H2D,
    "DtoH": CopyKind.D2H,
    "AtoH": CopyKind.D2H,
    "DtoD": CopyKind.D2D,
    "DtoA": CopyKind.D2D,
    "AtoD": CopyKind.D2D,
    "AtoA": CopyKind.D2D,
    "PtoP": CopyKind.PEER,
    "HtoH": CopyKind.H2H,
}
_MEMORY = {
    "Pageable": HostMemory.PAGEABLE,
    "Pinned": HostMemory.PINNED,
    "Device": HostMemory.DEVICE,
    "Device Static": HostMemory.DEVICE,
    "Array": HostMemory.DEVICE,
    "Managed": HostMemory.MANAGED,
    "Managed Static": HostMemory.MANAGED,
}


class CopyName(NamedTuple):
    """A copy's direction and the memory it read and wrote."""

    kind: CopyKind
    src: HostMemory
    dst: HostMemory


UNKNOWN_COPY = CopyName(CopyKind.UNKNOWN, HostMemory.UNKNOWN, HostMemory.UNKNOWN)


def parse_copy_name(name: str) -> CopyName:
    """The direction and memory kinds a Kineto copy name gives.

    Parameters
    ----------
    name
        The event's name, e.g. ``"Memcpy HtoD (Pageable -> Device)"``.

    Returns
    -------
    CopyName
        What the name says; each part unknown where the name does not say it in a known word.
    """
    match = _COPY_NAME.fullmatch(name.strip())
    if match is None:
        return _hip_copy(name.strip())
    return CopyName(
        _KINDS.get(match["kind"], CopyKind.UNKNOWN),
        _MEMORY.get(match["src"], HostMemory.UNKNOWN),
        _MEMORY.get(match["dst"], HostMemory.UNKNOWN),
    )


def _hip_copy(name: str) -> CopyName:
    """The direction a ROCm copy name (``CopyHostToDevice``) gives; the memory it does not say."""
    match = _HIP_COPY_NAME.fullmatch(name)
    if match is None:
        return UNKNOWN_COPY
    device = HostMemory.DEVICE
    src = device if match["src"] == "Device" else HostMemory.UNKNOWN
    dst = device if match["dst"] == "Device" else HostMemory.UNKNOWN
    return CopyName(_HIP_KINDS[match["src"], match["dst"]], src, dst)
