"""Kineto copy names: direction and memory read exactly, other forms read as unknown."""

import pytest

from overlapviz.importers.activity import CopyKind, HostMemory
from overlapviz.importers.copy_names import UNKNOWN_COPY, parse_copy_name


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Memcpy HtoD (Pinned -> Device)", (CopyKind.H2D, HostMemory.PINNED, HostMemory.DEVICE)),
        ("Memcpy HtoD (Pageable -> Device)", (CopyKind.H2D, HostMemory.PAGEABLE, HostMemory.DEVICE)),
        ("Memcpy DtoH (Device -> Pageable)", (CopyKind.D2H, HostMemory.DEVICE, HostMemory.PAGEABLE)),
        ("Memcpy DtoH (Device -> Pinned)", (CopyKind.D2H, HostMemory.DEVICE, HostMemory.PINNED)),
        ("Memcpy DtoD (Device -> Device)", (CopyKind.D2D, HostMemory.DEVICE, HostMemory.DEVICE)),
        ("Memcpy PtoP (Device -> Device)", (CopyKind.PEER, HostMemory.DEVICE, HostMemory.DEVICE)),
        ("Memcpy HtoH (Pinned -> Pageable)", (CopyKind.H2H, HostMemory.PINNED, HostMemory.PAGEABLE)),
        ("Memcpy HtoA (Pinned -> Array)", (CopyKind.H2D, HostMemory.PINNED, HostMemory.DEVICE)),
        ("Memcpy DtoH (Device Static -> Managed)", (CopyKind.D2H, HostMemory.DEVICE, HostMemory.MANAGED)),
        ("Memcpy XtoY (Device -> Device)", (CopyKind.UNKNOWN, HostMemory.DEVICE, HostMemory.DEVICE)),
        ("Memcpy HtoD (Unknown -> Device)", (CopyKind.H2D, HostMemory.UNKNOWN, HostMemory.DEVICE)),
    ],
)
def test_copy_names_say_direction_and_memory(name, expected):
    assert tuple(parse_copy_name(name)) == expected


@pytest.mark.parametrize(
    "name",
    [
        "",
        "Memcpy",
        "Memcpy HtoD",
        "memcpy HtoD (Pinned -> Device)",
        "Memcpy HtoD (Pinned Device)",
        "Memcpy HtoD (Pinned -> Device) extra",
        "x" * 100_000,
        "Memcpy HtoD (\u00e9 -> Device\n)",
    ],
)
def test_other_forms_read_as_unknown(name):
    assert parse_copy_name(name) == UNKNOWN_COPY
