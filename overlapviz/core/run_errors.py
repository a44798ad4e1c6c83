"""How a run ends short: the backend could not run it, or it was cancelled.

In core, not beside the backends, because a cancel (`overlapviz.core.cancel`) stops more than
a backend's run: loading a file and preparing its view check the same token. A cancel is a
`BackendError` too, so that a caller that reports failures treats a cancelled run as one that
did not finish.
"""

from __future__ import annotations


class BackendError(RuntimeError):
    """A backend could not run the pipeline; the message says why in words."""


class RunCancelled(BackendError):
    """The run was cancelled before it finished (a newer request superseded it)."""
