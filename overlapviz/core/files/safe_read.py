"""Reading a file a user named: regular files only, never blocking, never without bound.

A named pipe with no writer would block the open (and then the read) forever, and a device
such as ``/dev/zero`` never ends. `read_input_bytes` looks at the path before opening it (so
opening a device never has its side effects), opens it without blocking, checks again on the
open descriptor (the path may have changed in between), and reads at most one byte more than
the size limit: a file over it is refused, not read.

Gzip-compressed input is read transparently, recognised by its first two bytes rather than its
name, with the same limit on the decompressed size (a small file can unpack to a huge one). It
is decompressed once, as a stream, counted on the way: past a few MiB the data goes into a
nameless temporary file rather than memory, so that a bomb is refused having held none of it
(it may have written up to the limit to disk, removed at once), and large data is then read
back into one buffer of its size. The input is held once, never also as pieces to join.

The limit is the ``max_bytes`` argument, else the environment variable
``OVERLAPVIZ_MAX_INPUT_BYTES`` (a whole number of bytes), else this machine's memory: a file
is not refused for its size alone, only when it could not be held at all (where the system
does not say how much memory it has, 2 GiB).

`map_input` gives a large plain file as a read-only map of it instead of a copy: its pages
are the system's file cache, which a reader may let go of as it goes (`release_pages`),
so that a trace of gigabytes is never all resident in the process at once.
"""

from __future__ import annotations

import errno
import gzip
import io
import mmap
import os
import stat
import tempfile
import zlib
from collections.abc import Callable
from typing import BinaryIO, Protocol, TypeVar

from overlapviz.core.files import posix
from overlapviz.core.files.file_system import NUL_IN_NAME, REGULAR_ONLY, kind_of
from overlapviz.core.i18n import N_, _

MAX_INPUT_ENV = "OVERLAPVIZ_MAX_INPUT_BYTES"
DEFAULT_MAX_INPUT_BYTES = 2 * 1024**3  # where the system does not say how much memory it has
MAP_MIN_BYTES = 64 * 1024**2  # input this large is held on disk and mapped, not in memory (`map_input`)
GZIP_MAGIC = b"\x1f\x8b"
SNIFF_BYTES = 64 * 1024  # the start of a file that `map_input`'s `mapped_if` is shown
_CHUNK = 1024**2  # read in pieces: never more than this held beyond the input itself
_IN_MEMORY_BYTES = _CHUNK  # gzip decompressed past this goes on to disk (`_unpack_gzip`)
# what copy_file_range answers where the system cannot copy between these files: copied by hand then
_NO_SYSTEM_COPY = frozenset({errno.EXDEV, errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.EPERM, errno.EBADF})


# What a file that cannot be read is said to be, by `InputFileError.what`
_CANNOT_READ = {
    "trace": N_("cannot read trace {file}: {why}"), "session": N_("cannot read session {file}: {why}"),
    "preset": N_("cannot read preset {file}: {why}"), "exercise": N_("cannot read exercise {file}: {why}"),
    "settings": N_("cannot read settings {file}: {why}"), "file": N_("cannot read file {file}: {why}"),
}  # fmt: skip


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


class InputFileError(OSError):
    """A file cannot be read as input; ``str()`` is ``cannot read WHAT PATH: why``.

    Built like `OSError`: ``InputFileError(errno or None, why, path)``; ``strerror`` is the
    reason alone, ``filename`` the path. `what` says what the file was to be (``"trace"``).
    """

    what = "file"

    def __str__(self) -> str:
        said = _CANNOT_READ.get(self.what)
        if said is None:
            return _("cannot read {what} {file}: {why}").format(what=self.what, file=self.filename, why=self.strerror)
        return _(said).format(file=self.filename, why=self.strerror)


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
        environment (``OVERLAPVIZ_MAX_INPUT_BYTES``), else this machine's memory.

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

    def read(stream: BinaryIO, compressed: bool, limit: int, size: int, from_memory: bool) -> bytes:
        if compressed:
            return _read_gzip(stream, limit, path, what, from_memory)
        if size > limit:
            raise _refused(path, what, _too_big(limit, from_memory=from_memory), errno.EFBIG)
        return _read_at_most(stream, limit, size, path, what, from_memory=from_memory)

    return _with_input(path, what, max_bytes, read)


def map_input(
    path: str | os.PathLike[str],
    *,
    what: str = "trace",
    max_bytes: int | None = None,
    mapped_if: Callable[[bytes], bool] | None = None,
) -> bytes | mmap.mmap:
    """`read_input_bytes`, but input of `MAP_MIN_BYTES` or more comes as a read-only map.

    A plain file is copied into a nameless temporary file that is mapped; gzip is unpacked into
    one as it is counted (`read_input_bytes`). The copy is on disk, not in this process's
    memory, and no other process can cut it short under the map. The map must be closed by its
    reader once nothing refers to its bytes. With `mapped_if`, a plain file is mapped only where
    its first `SNIFF_BYTES` pass it, and read whole otherwise: a reader that wants the bytes is
    spared the copy on disk.
    """

    def read(stream: BinaryIO, compressed: bool, limit: int, size: int, from_memory: bool) -> bytes | mmap.mmap:
        if compressed:
            return _map_gzip(stream, limit, path, what, from_memory)
        if size < MAP_MIN_BYTES or not _passes(stream, mapped_if):
            return _read_at_most(stream, limit, size, path, what, from_memory=from_memory)
        if size > limit:
            raise _refused(path, what, _too_big(limit, from_memory=from_memory), errno.EFBIG)
        return _mapped_copy(stream, limit, path, what, from_memory=from_memory)

    return _with_input(path, what, max_bytes, read)


def _passes(stream: BinaryIO, mapped_if: Callable[[bytes], bool] | None) -> bool:
    """Whether the start of `stream` passes `mapped_if` (None passes all); the stream is left at its start."""
    if mapped_if is None:
        return True
    head = stream.read(SNIFF_BYTES)
    stream.seek(0)
    return mapped_if(head)


_Got = TypeVar("_Got")


def _with_input(
    path: str | os.PathLike[str],
    what: str,
    max_bytes: int | None,
    read: Callable[[BinaryIO, bool, int, int, bool], _Got],
) -> _Got:
    """Open `path` as a regular file and `read` it: (stream, is gzip, limit, size, limit is memory).

    The one way in for both readers: the limit taken, anything but a regular file refused, and
    the system's errors while reading turned into `InputFileError` naming the file.
    """
    limit = _limit(path, what, max_bytes)
    fd, size = _open_regular(path, what)
    with os.fdopen(fd, "rb") as stream:
        try:
            compressed = stream.read(len(GZIP_MAGIC)) == GZIP_MAGIC
            stream.seek(0)
            return read(stream, compressed, limit, size, _limit_is_memory(max_bytes))
        except InputFileError:
            raise
        except OSError as error:
            raise _refused(path, what, error.strerror or str(error), error.errno) from None


def release_pages(data: bytes | mmap.mmap) -> None:
    """Let the system take back the pages of a map read so far (they are read again if touched)."""
    if isinstance(data, mmap.mmap) and hasattr(mmap, "MADV_DONTNEED"):
        data.madvise(mmap.MADV_DONTNEED)


def max_input_bytes(max_bytes: int | None = None) -> int:
    """Return the size limit on input files: `max_bytes`, else the environment's, else this machine's memory.

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
        return machine_memory_bytes()
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise ValueError(
            _("{variable}={value} is not a whole number of bytes from 1").format(
                variable=MAX_INPUT_ENV, value=repr(text)
            )
        )
    return value


def machine_memory_bytes() -> int:
    """Return this machine's memory in bytes: more than that cannot be held; `DEFAULT_MAX_INPUT_BYTES` where unknown."""
    try:
        page, pages = os.sysconf("SC_PAGE_SIZE"), os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return DEFAULT_MAX_INPUT_BYTES
    return page * pages if page > 0 and pages > 0 else DEFAULT_MAX_INPUT_BYTES


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


def _limit_is_memory(max_bytes: int | None) -> bool:
    """Whether the limit is this machine's memory rather than one someone set."""
    return max_bytes is None and not os.environ.get(MAX_INPUT_ENV, "").strip()


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
        raise _refused(path, what, _(NUL_IN_NAME), errno.EINVAL) from None
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
        raise _refused(path, what, _("it is {kind}; {rule}").format(kind=kind_of(mode), rule=_(REGULAR_ONLY)), None)


def _read_gzip(stream: BinaryIO, limit: int, path: str | os.PathLike[str], what: str, from_memory: bool) -> bytes:
    """Decompressed once (`_unpack_gzip`); what went on to disk read back into one buffer of its size."""
    unpacked = _unpack_gzip(stream, limit, path, what, from_memory)
    if isinstance(unpacked, bytes):
        return unpacked
    with unpacked:
        size = os.fstat(unpacked.fileno()).st_size
        return _read_at_most(unpacked, limit, size, path, what, decompressed=True, from_memory=from_memory)


def _map_gzip(stream: BinaryIO, limit: int, path: str | os.PathLike[str], what: str,
              from_memory: bool) -> bytes | mmap.mmap:  # fmt: skip
    """Large gzip unpacked into a nameless temporary file and mapped: on disk, not in this process's memory."""
    unpacked = _unpack_gzip(stream, limit, path, what, from_memory, min(_IN_MEMORY_BYTES, MAP_MIN_BYTES - 1))
    if isinstance(unpacked, bytes):
        return unpacked
    with unpacked:
        size = os.fstat(unpacked.fileno()).st_size
        if size < MAP_MIN_BYTES:
            return _read_at_most(unpacked, limit, size, path, what, decompressed=True, from_memory=from_memory)
        return mmap.mmap(unpacked.fileno(), 0, access=mmap.ACCESS_READ)  # the map keeps its own hold on the file


def _unpack_gzip(stream: BinaryIO, limit: int, path: str | os.PathLike[str], what: str, from_memory: bool,
                 in_memory: int = _IN_MEMORY_BYTES) -> bytes | BinaryIO:  # fmt: skip
    """Gzip decompressed once, counted on the way: the bytes if few, else a nameless temporary file holding them.

    Past `in_memory` bytes the data goes on to disk, so that a bomb is never held in memory;
    it is refused once it passes `limit`, having written at most that much, and its file is gone.
    """
    sink: BinaryIO = io.BytesIO()
    try:
        with gzip.GzipFile(fileobj=stream, mode="rb") as unpacked:
            while part := unpacked.read(min(_CHUNK, limit + 1 - sink.tell())):
                if isinstance(sink, io.BytesIO) and sink.tell() + len(part) > in_memory:
                    sink = _on_disk(sink)
                sink.write(part)
        if sink.tell() > limit:
            raise _refused(path, what, _too_big(limit, True, from_memory), errno.EFBIG)
    except (gzip.BadGzipFile, EOFError, zlib.error) as error:
        sink.close()
        raise _refused(
            path, what, _("it starts like gzip but is not valid gzip ({error})").format(error=error), None
        ) from None
    except BaseException:
        sink.close()
        raise
    if isinstance(sink, io.BytesIO):
        return sink.getvalue()
    sink.flush()
    sink.seek(0)
    return sink


def _on_disk(held: io.BytesIO) -> BinaryIO:
    """A nameless temporary file with what `held` holds, `held` emptied."""
    disk = tempfile.TemporaryFile(prefix="overlapviz-")  # noqa: SIM115 (it outlives this function: the caller closes it)
    try:
        disk.write(held.getbuffer())
    except BaseException:
        disk.close()
        raise
    held.close()
    return disk


def _mapped_copy(stream: BinaryIO, limit: int, path: str | os.PathLike[str], what: str, *,
                 from_memory: bool) -> mmap.mmap:  # fmt: skip
    """A plain file copied into a nameless temporary file of our own and mapped read-only.

    Never the user's file itself: a file cut short while it is mapped stops the process (the
    system's SIGBUS), and only this process can reach a file with no name. The system copies
    it where it can (``copy_file_range``), never through this process's memory.
    """
    with tempfile.TemporaryFile(prefix="overlapviz-") as copy:
        if not _copied_by_the_system(stream, copy, limit + 1):
            stream.seek(0)
            copy.seek(0)
            copy.truncate()
            while part := stream.read(min(_CHUNK, limit + 1 - copy.tell())):
                copy.write(part)
        if copy.seek(0, os.SEEK_END) > limit:  # it grew since it was looked at
            raise _refused(path, what, _too_big(limit, False, from_memory), errno.EFBIG)
        copy.flush()
        return mmap.mmap(copy.fileno(), 0, access=mmap.ACCESS_READ)  # the map keeps its own hold on the file


def _copied_by_the_system(stream: BinaryIO, copy: BinaryIO, most: int) -> bool:
    """Copy up to `most` bytes of `stream` from its start into `copy` inside the system; False where it cannot."""
    if not hasattr(os, "copy_file_range"):
        return False
    done = 0
    try:
        while done < most and (moved := os.copy_file_range(stream.fileno(), copy.fileno(), most - done, done, done)):
            done += moved
    except OSError as error:
        if error.errno in _NO_SYSTEM_COPY:
            return False
        raise
    return True


def _read_at_most(
    stream: _Readable,
    limit: int,
    expected: int,
    path: str | os.PathLike[str],
    what: str,
    decompressed: bool = False,
    *,
    from_memory: bool = False,
) -> bytes:
    """Read to the end, but refuse (having read at most `limit` + 1 bytes) a stream longer than `limit`.

    The `expected` bytes (the size the file claims) are read in one call, straight into the
    result (no zeroed buffer filled again, nothing joined); only a file that grew meanwhile
    reads on in pieces, into one buffer that becomes the result without a copy.
    """
    whole = b""
    if 0 < expected <= limit:
        whole = stream.read(expected)
        more = stream.read(1) if len(whole) == expected else b""
        if not more:  # the whole of it (shorter where it shrank meanwhile)
            return whole
        whole += more
    buffer = io.BytesIO()
    buffer.write(whole)
    total = len(whole)
    while total <= limit and (part := stream.read(min(_CHUNK, limit + 1 - total))):
        buffer.write(part)
        total += len(part)
    if total > limit:
        raise _refused(path, what, _too_big(limit, decompressed, from_memory), errno.EFBIG)
    return buffer.getvalue()  # the buffer itself, not a copy, while nothing else refers to it


def _too_big(limit: int, decompressed: bool = False, from_memory: bool = False) -> str:
    """Why a file is refused for its size: a limit someone set, or the memory this machine has."""
    if from_memory:
        if decompressed:
            return _("it decompresses to more than this machine's memory ({limit} bytes) can hold").format(limit=limit)
        return _("it is larger than this machine's memory ({limit} bytes) can hold").format(limit=limit)
    if decompressed:
        said = _(
            "it decompresses to more than the limit of {limit} bytes for input files (set {variable} to change it)"
        )
    else:
        said = _("it is larger than the limit of {limit} bytes for input files (set {variable} to change it)")
    return said.format(limit=limit, variable=MAX_INPUT_ENV)


def _refused(path: str | os.PathLike[str], what: str, why: str, code: int | None) -> InputFileError:
    error = _ERROR_OF_ERRNO.get(code, InputFileError)(code, why, os.fspath(path))
    error.what = what
    return error
