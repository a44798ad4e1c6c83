"""Reading a file a user named: regular files only, never blocking, never without bound.

A named pipe with no writer would block the open (and then the read) forever, and a device
such as ``/dev/zero`` never ends. `read_input_bytes` looks at the path before opening it (so
opening a device never has its side effects), opens it without blocking, checks again on the
open descriptor (the path may have changed in between), and reads at most one byte more than
the size limit: a file over it is refused, not read.

Gzip-compressed input is read transparently, recognised by its first two bytes rather than its
name, with the same limit on the decompressed size (a small file can unpack to a huge one). It
is decompressed twice, as a stream: first only to count, so a bomb is refused before any of
it is kept, then into one buffer of the counted size. The input is held once, never also as
pieces to join.

The limit is the ``max_bytes`` argument, else the environment variable
``OVERLAPVIZ_MAX_INPUT_BYTES`` (a whole number of bytes), else 2 GiB.
"""

from __future__ import annotations

import errno
import gzip
import io
import os
import stat
import zlib
from typing import BinaryIO, Protocol

from overlapviz.core.files import posix
from overlapviz.core.files.file_system import NUL_IN_NAME, REGULAR_ONLY, kind_of

MAX_INPUT_ENV = "OVERLAPVIZ_MAX_INPUT_BYTES"
DEFAULT_MAX_INPUT_BYTES = 2 * 1024**3
GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 1024**2  # read in pieces: never more than this held beyond the input itself


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


class InputFileError(OSError):
    """A file cannot be read as input; ``str()`` is ``cannot read WHAT PATH: why``.

    Built like `OSError`: ``InputFileError(errno or None, why, path)``; ``strerror`` is the
    reason alone, ``filename`` the path. `what` says what the file was to be (``"trace"``).
    """

    what = "file"

    def __str__(self) -> str:
        return f"cannot read {self.what} {self.filename}: {self.strerror}"


class MissingInputFileError(InputFileError, FileNotFoundError):
    """The file does not exist (an `InputFileError` that ``except FileNotFoundError`` catches too)."""


class InputPermissionError(InputFileError, PermissionError):
    """The file may not be read (an `InputFileError` that ``except PermissionError`` catches too)."""


_ERROR_OF_ERRNO: dict[int | None, type[InputFileError]] = {
    errno.ENOENT: MissingInputFileError,
    errno.EACCES: InputPermissionError,
    errno.EPERM: InputPermissionError,
}


def read_input_bytes(path: str | os.PathLike[str], *, what: str = "trace", max_bytes: int | None = None) -> bytes:
    """Read the whole of a regular file, decompressed when it is gzip, up to a size limit.

    Parameters
    ----------
    path
        The file to read; a symbolic link is followed.
    what
        What the file is to be, for the message (``"trace"``, ``"preset"``, ``"session"``).
    max_bytes
        The most bytes to accept (after decompression); None for the limit of the
        environment (``OVERLAPVIZ_MAX_INPUT_BYTES``), else 2 GiB.

    Returns
    -------
    bytes
        The file's contents, decompressed if they were gzip.

    Raises
    ------
    InputFileError
        The file is missing or unreadable, is not a regular file (a folder, named pipe,
        device, socket), is larger than the limit, or is damaged gzip; the message names the
        file and what is wrong. It is an `OSError`, with the system's errno where there is one.
    """
    limit = _limit(path, what, max_bytes)
    fd, size = _open_regular(path, what)
    with os.fdopen(fd, "rb") as stream:
        try:
            compressed = stream.read(len(GZIP_MAGIC)) == GZIP_MAGIC
            stream.seek(0)
            if compressed:
                return _read_gzip(stream, limit, path, what)
            if size > limit:
                raise _refused(path, what, _too_big(limit), errno.EFBIG)
            return _read_at_most(stream, limit, size, path, what)
        except InputFileError:
            raise
        except OSError as error:
            raise _refused(path, what, error.strerror or str(error), error.errno) from None


def max_input_bytes(max_bytes: int | None = None) -> int:
    """Return the size limit on input files: `max_bytes`, else the environment's, else 2 GiB.

    Raises
    ------
    ValueError
        `max_bytes`, or ``OVERLAPVIZ_MAX_INPUT_BYTES``, is not a whole number of bytes from 1.
    """
    if max_bytes is not None:
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1:
            raise ValueError(f"the size limit must be a whole number of bytes from 1, not {max_bytes!r}")
        return max_bytes
    text = os.environ.get(MAX_INPUT_ENV, "").strip()
    if not text:
        return DEFAULT_MAX_INPUT_BYTES
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise ValueError(f"{MAX_INPUT_ENV}={text!r} is not a whole number of bytes from 1")
    return value


def read_flags() -> int:
    """Flags to open a file for reading: never blocking on the open, nor making it the terminal (POSIX)."""
    if not posix.available():
        return os.O_RDONLY | getattr(os, "O_BINARY", 0)
    return os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


def _limit(path: str | os.PathLike[str], what: str, max_bytes: int | None) -> int:
    try:
        return max_input_bytes(max_bytes)
    except ValueError as error:
        raise _refused(path, what, str(error), errno.EINVAL) from None


def _open_regular(path: str | os.PathLike[str], what: str) -> tuple[int, int]:
    """Open `path` for reading if it is a regular file; return the descriptor and the size."""
    try:
        _check_regular(path, what, os.stat(path).st_mode)
        fd = os.open(path, read_flags())
    except InputFileError:
        raise
    except OSError as error:
        raise _refused(path, what, error.strerror or str(error), error.errno) from None
    except ValueError:  # the system cannot even be asked about such a name
        raise _refused(path, what, NUL_IN_NAME, errno.EINVAL) from None
    try:
        info = os.fstat(fd)
        _check_regular(path, what, info.st_mode)  # what was opened, should the path have changed
        if posix.available():
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd, info.st_size


def _check_regular(path: str | os.PathLike[str], what: str, mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise _refused(path, what, f"it is {kind_of(mode)}; {REGULAR_ONLY}", None)


def _read_gzip(stream: BinaryIO, limit: int, path: str | os.PathLike[str], what: str) -> bytes:
    """Decompress twice: once counting, holding nothing (a bomb is refused having kept no byte of it), then keeping."""
    try:
        size = _decompressed_size(stream, limit, path, what)
        stream.seek(0)
        with gzip.GzipFile(fileobj=stream, mode="rb") as unpacked:
            return _read_at_most(unpacked, limit, size, path, what, decompressed=True)
    except (gzip.BadGzipFile, EOFError, zlib.error) as error:
        raise _refused(path, what, f"it starts like gzip but is not valid gzip ({error})", None) from None


def _decompressed_size(stream: BinaryIO, limit: int, path: str | os.PathLike[str], what: str) -> int:
    """The size of the decompressed data, each piece dropped once counted; refused past `limit`."""
    total = 0
    with gzip.GzipFile(fileobj=stream, mode="rb") as unpacked:
        while part := unpacked.read(min(_CHUNK, limit + 1 - total)):
            total += len(part)
            if total > limit:
                raise _refused(path, what, _too_big(limit, decompressed=True), errno.EFBIG)
    return total


def _read_at_most(
    stream: _Readable, limit: int, expected: int, path: str | os.PathLike[str], what: str, decompressed: bool = False
) -> bytes:
    """Read to the end, but refuse (having read at most `limit` + 1 bytes) a stream longer than `limit`.

    The bytes go into one buffer made `expected` long at the start (the size the file
    claims), which becomes the result without a copy: the input is held once, never once as
    pieces and again joined. A file that grew meanwhile grows the buffer.
    """
    buffer = io.BytesIO()
    if 0 < expected <= limit:
        buffer.seek(expected - 1)
        buffer.write(b"\0")
        buffer.seek(0)
    total = 0
    while total <= limit and (part := stream.read(min(_CHUNK, limit + 1 - total))):
        buffer.write(part)
        total += len(part)
    if total > limit:
        raise _refused(path, what, _too_big(limit, decompressed), errno.EFBIG)
    buffer.truncate(total)  # a file that shrank meanwhile
    return buffer.getvalue()  # the buffer itself, not a copy, while nothing else refers to it


def _too_big(limit: int, decompressed: bool = False) -> str:
    size = "it decompresses to more than" if decompressed else "it is larger than"
    return f"{size} the limit of {limit} bytes for input files (set {MAX_INPUT_ENV} to change it)"


def _refused(path: str | os.PathLike[str], what: str, why: str, code: int | None) -> InputFileError:
    error = _ERROR_OF_ERRNO.get(code, InputFileError)(code, why, os.fspath(path))
    error.what = what
    return error
