"""The files a command writes: checked before the work, renamed into place together after it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from overlapviz.commands.errors import UsageError
from overlapviz.core.files.atomic_write import written_together
from overlapviz.core.files.columnar_write import export_columnar, is_columnar_name
from overlapviz.core.files.trace_export import export_chrome, export_csv
from overlapviz.core.files.write_destination import DestinationError, check_destination
from overlapviz.core.i18n import _
from overlapviz.core.trace.spans import Trace
from overlapviz.session import RunResult


def output_paths(path: Path | None, runs: int) -> list[Path]:
    """One path per run (FILE-a.json, FILE-b.json for two), each checked to be writable."""
    if path is None:
        return []
    if not path.name:  # "/" or ".": no file name to derive FILE-a from
        raise UsageError(_("cannot write {path}: it is a folder").format(path=path))
    paths = [path] if runs == 1 else [path.with_name(f"{path.stem}-{k}{path.suffix}") for k in "ab"[:runs]]
    for each in paths:
        check_writable(each)
    return paths


def check_writable(path: Path) -> None:
    """Fail before a long run, not after it, when an output file cannot be written."""
    try:
        check_destination(path)
    except DestinationError as error:
        raise UsageError(str(error)) from None


def write_outputs(results: list[RunResult], outputs: dict[str, list[Path]]) -> list[Path]:
    """Write each run's trace (``trace``: Chrome JSON, or columns for FILE.ovz; ``csv``: CSV) to its paths."""
    writers = {"trace": _write_trace, "csv": export_csv}
    written = []
    for kind, paths in outputs.items():
        for result, path in zip(results, paths, strict=False):
            try:
                writers[kind](result.trace, path)
            except OSError as error:
                raise UsageError(str(error)) from None
            written.append(path)
    return written


def _write_trace(trace: Trace, path: Path) -> None:
    (export_columnar if is_columnar_name(path) else export_chrome)(trace, path)


@contextmanager
def outputs_together() -> Iterator[None]:
    """Rename every output of the run into place at the end, together (docs/files.md says what holds)."""
    try:
        with written_together():
            yield
    except OSError as error:  # a rename at the end failed; the message names the file
        raise UsageError(str(error)) from None
