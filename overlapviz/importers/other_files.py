"""Files people take for traces that overlapviz does not read, each with what to open instead.

- An Nsight Systems report (``.nsys-rep``, and ``.qdrep`` before 2021.4): Nsight's own binary
  format, which begins with the text ``NVIDIA Tegra Profiler Report``. Nsight exports it as
  SQLite, which overlapviz reads.
- overlapviz's own CSV export: written for spreadsheets, it leaves out the metadata a trace
  needs (the device, the timing source, the names of the lanes); the JSON trace has them.
"""

from __future__ import annotations

import os

from overlapviz.core.files.trace_export import CSV_HEADER
from overlapviz.core.i18n import _
from overlapviz.importers.untrusted_sqlite import SQLITE_MAGIC

NSYS_REPORT_MAGIC = b"NVIDIA Tegra Profiler Report"
NSYS_REPORT_SUFFIXES = (".nsys-rep", ".qdrep")
_CSV_START = ",".join(CSV_HEADER).encode()
_TEXT_STARTS = (b"{", b"[")  # what a JSON trace begins with, after any blank


def what_to_open_instead(raw: bytes, source: str) -> str | None:
    """One line saying what `raw` is and what to open instead; None for any other file.

    Parameters
    ----------
    raw
        The whole file, decompressed.
    source
        The file's name: an Nsight report is also known by its suffix, where its bytes are
        neither JSON nor an SQLite database.
    """
    if _is_nsys_report(raw, source):
        name = os.path.basename(source)
        return _(
            "{file}: an Nsight Systems report, which overlapviz does not read: export it as SQLite"
            " (nsys export --type sqlite {name}) and open the .sqlite file"
        ).format(file=source, name=name)
    if raw.startswith(_CSV_START):
        return _(
            "{file}: this is overlapviz's CSV export, which it does not read back: open the .json trace instead"
        ).format(file=source)
    return None


def _is_nsys_report(raw: bytes, source: str) -> bool:
    if raw.startswith(NSYS_REPORT_MAGIC):
        return True
    by_name = source.lower().endswith(NSYS_REPORT_SUFFIXES)
    return by_name and not raw.lstrip().startswith(_TEXT_STARTS) and not raw.startswith(SQLITE_MAGIC)
