"""overlapviz: see where asynchronous GPU copies and kernels overlap, and why."""

from importlib.metadata import PackageNotFoundError, version

from overlapviz.record_block import record

try:
    __version__ = version("overlapviz")
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0.2.0"

__all__ = ["__version__", "record"]
