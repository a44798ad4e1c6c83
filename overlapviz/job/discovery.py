"""Which files make a job: the traces in a folder, or the files named, each one rank's.

A folder's traces are its files whose names end as traces do (``.json``, ``.json.gz``,
``.ovz``, ``.sqlite``, ...), and those one folder down where it has none itself (``rank0/trace.json``):
a README or a licence beside them is no rank. A file named on the command line is taken
whatever its name, and refused later if it is no trace.

Which rank a file is comes from the file itself where it says (Kineto's
``distributedInfo.rank``, a process named after its rank), else from its name
(``rank-3.json.gz``, ``trace_rank_3.json``, ``worker3.pt.trace.json``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from overlapviz.core.i18n import _

TRACE_SUFFIXES = (".json", ".json.gz", ".gz", ".ovz", ".sqlite", ".sqlite3", ".db")
_RANK_IN_NAME = re.compile(r"(?:rank|worker|proc|process)[-_ ]?(\d{1,6})(?!\d)", re.IGNORECASE)
_RANK_IN_PROCESS = re.compile(r"\brank[-_ :=]?(\d{1,6})\b", re.IGNORECASE)


class JobInputError(ValueError):
    """The paths given make no job: a missing path, an empty folder, a folder without traces; one line."""


def job_files(paths: Sequence[Path]) -> list[Path]:
    """The trace files `paths` name: each file itself, each folder's traces, in name order.

    Raises
    ------
    JobInputError
        A path does not exist, or a folder holds no trace.
    """
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += folder_traces(path)
        elif path.exists():
            files.append(path)
        else:
            raise JobInputError(_("{path}: no such file or folder").format(path=path))
    return list(dict.fromkeys(files))


def folder_traces(folder: Path) -> list[Path]:
    """The traces in `folder`, else in its subfolders, sorted by name with numbers in order."""
    found = _traces_in(folder)
    if not found:
        found = [file for sub in sorted(folder.iterdir()) if sub.is_dir() and not _hidden(sub)
                 for file in _traces_in(sub)]  # fmt: skip
    if not found:
        if not any(folder.iterdir()):
            raise JobInputError(_("{folder}: the folder is empty").format(folder=folder))
        message = _("{folder}: the folder holds no trace (no file ending in {suffixes})")
        raise JobInputError(message.format(folder=folder, suffixes=", ".join(TRACE_SUFFIXES)))
    return sorted(found, key=natural_key)


def rank_from_name(path: Path | str) -> int | None:
    """The rank a file's name gives (``rank-3``, ``rank_3``, ``worker3``), or None."""
    found = _RANK_IN_NAME.findall(Path(path).name)
    return int(found[-1]) if found else None


def rank_from_process(process: str | None) -> int | None:
    """The rank in a process's name, where it says one (``trainer rank 3``), or None."""
    found = _RANK_IN_PROCESS.findall(process or "")
    return int(found[-1]) if len(set(found)) == 1 else None


def natural_key(path: Path) -> tuple[object, ...]:
    """Sorts ``rank-10`` after ``rank-9``."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", str(path)))


def _traces_in(folder: Path) -> list[Path]:
    return [path for path in folder.iterdir()
            if path.is_file() and not _hidden(path) and path.name.lower().endswith(TRACE_SUFFIXES)]  # fmt: skip


def _hidden(path: Path) -> bool:
    return path.name.startswith(".")
