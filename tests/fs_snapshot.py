"""What a folder holds, to compare before and after: each entry's kind and what it holds or points to."""

import hashlib
import os
import socket
import stat
from pathlib import Path

from overlapviz.core.files.partial_files import writer_of


def snapshot(folder: Path) -> dict[str, tuple]:
    """Every entry under `folder` (not following links): kind, and contents hash or link target."""
    found = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(root) / name
            found[str(path.relative_to(folder))] = describe(path)
    return found


def describe(path: Path) -> tuple:
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        return ("link", os.readlink(path))
    if stat.S_ISREG(info.st_mode):
        return ("file", hashlib.sha256(path.read_bytes()).hexdigest())
    return (stat.S_IFMT(info.st_mode), info.st_rdev)


def partials(folder: Path) -> list[str]:
    """The partial files (named as overlapviz names them) in `folder`."""
    return sorted(name for name in os.listdir(folder) if writer_of(name) is not None)


def make_fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def make_socket(path: Path) -> socket.socket:
    """A listening Unix socket at `path`; close it when done."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(path))
    return sock


def make_device(path: Path, major: int, minor: int) -> Path | None:
    """A character device node in a test folder (root only); None where one cannot be made."""
    if not hasattr(os, "mknod") or os.geteuid() != 0:
        return None
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(major, minor))
    except OSError:  # no CAP_MKNOD in this container
        return None
    return path


def permissions_hold(folder: Path) -> bool:
    """Whether a folder without write permission stops us creating a file in it (not for root)."""
    folder.chmod(0o555)
    probe = folder / ".probe"
    try:
        probe.touch()
    except PermissionError:
        return True
    finally:
        folder.chmod(0o755)
    probe.unlink()
    return False
