"""The error of a file that is not a PyTorch profiler trace that can be read."""

from __future__ import annotations

from overlapviz.core.files.trace_format import file_reason


class KinetoFormatError(ValueError):
    """A file is not a PyTorch profiler trace that can be read; one line naming the file and why."""


def kineto_error(source: str, why: str) -> KinetoFormatError:
    """The error of `source`, in one line that names the file and says why (`why` in the active language)."""
    message = file_reason(source, why)
    return KinetoFormatError(message.replace("\r", "\\r").replace("\n", "\\n"))
