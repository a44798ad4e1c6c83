"""How much memory the system can give now without swapping: Linux's ``MemAvailable``.

Free memory alone (``SC_AVPHYS_PAGES``) leaves out the page cache the kernel gives back on
demand: just after a job's trace files were written or read, "free" is nearly nothing while
almost all of it is available. Whoever sizes work by memory (a pool of rank workers, a
reader's helpers, a run's host buffers) asks here.
"""

from __future__ import annotations

from pathlib import Path

MEMINFO = Path("/proc/meminfo")


def parse_meminfo(text: str) -> int | None:
    """Bytes of ``MemAvailable`` in a /proc/meminfo text, or None if it has none."""
    for line in text.splitlines():
        if line.startswith("MemAvailable:"):
            fields = line.split()
            return int(fields[1]) * 1024 if len(fields) >= 2 and fields[1].isdigit() else None
    return None


def available_memory_bytes() -> int | None:
    """The memory the system can give without swapping, in bytes; None where it does not say."""
    try:
        return parse_meminfo(MEMINFO.read_text(encoding="ascii"))
    except (OSError, UnicodeDecodeError):
        pass
    try:
        import psutil  # optional; Windows and macOS have no /proc
    except ImportError:
        return None
    return int(psutil.virtual_memory().available)
