import errno
import gzip
import os
import tempfile
import threading
import time
from pathlib import Path

import pytest
from fs_snapshot import make_device, make_fifo, make_socket
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from overlapviz.core.files import safe_read
from overlapviz.core.files.safe_read import (
    DEFAULT_MAX_INPUT_BYTES,
    GZIP_MAGIC,
    MAX_INPUT_ENV,
    InputFileError,
    machine_memory_bytes,
    max_input_bytes,
    read_input_bytes,
)


def refusal(path, **kwargs) -> InputFileError:
    with pytest.raises(InputFileError) as caught:
        read_input_bytes(path, **kwargs)
    assert str(caught.value).startswith(f"cannot read {kwargs.get('what', 'trace')} {path}: ")
    assert "\n" not in str(caught.value)
    return caught.value


@pytest.fixture(autouse=True)
def no_limit_from_the_environment(monkeypatch):
    monkeypatch.delenv(MAX_INPUT_ENV, raising=False)


def test_a_regular_file_is_read_whole(tmp_path):
    (tmp_path / "t.json").write_bytes(b'{"a": 1}')
    assert read_input_bytes(tmp_path / "t.json") == b'{"a": 1}'


def test_an_empty_file_is_empty(tmp_path):
    (tmp_path / "t.json").write_bytes(b"")
    assert read_input_bytes(tmp_path / "t.json") == b""


def test_a_link_to_a_regular_file_is_followed(tmp_path):
    (tmp_path / "real").write_bytes(b"data")
    (tmp_path / "link").symlink_to("real")
    assert read_input_bytes(tmp_path / "link") == b"data"


def test_a_missing_file_is_also_a_file_not_found_error(tmp_path):
    with pytest.raises(FileNotFoundError) as caught:
        read_input_bytes(tmp_path / "absent.json", what="session")
    assert isinstance(caught.value, InputFileError)
    assert str(caught.value) == f"cannot read session {tmp_path / 'absent.json'}: No such file or directory"


def refused_promptly(fifo: Path, **kwargs) -> str:
    """The refusal of reading `fifo`, which must come within seconds (run in a thread, to fail, not hang)."""
    outcome = []
    reader = threading.Thread(target=lambda: outcome.append(_error_of(fifo, **kwargs)), daemon=True)
    reader.start()
    reader.join(5)
    if reader.is_alive():  # it blocked: release it so the test run goes on, then fail
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(5)
        pytest.fail("reading a named pipe blocked")
    return outcome[0]


def _error_of(path: Path, **kwargs) -> str:
    try:
        read_input_bytes(path, **kwargs)
    except InputFileError as error:
        return str(error)
    return "read"


def test_a_fifo_without_a_writer_is_refused_at_once(tmp_path):
    fifo = make_fifo(tmp_path / "f")
    error = refused_promptly(fifo)
    assert (
        error == f"cannot read trace {fifo}: it is a named pipe (FIFO); overlapviz reads and writes regular files only"
    )


def test_an_endless_fifo_fed_by_a_thread_is_refused_without_reading(tmp_path):
    fifo = make_fifo(tmp_path / "zero")
    feeder_end = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)  # holds the pipe open, as a writer would
    stop = threading.Event()

    def feed():
        while not stop.is_set():
            try:
                os.write(feeder_end, b"\0" * 65536)
            except BlockingIOError:
                time.sleep(0.001)

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        assert "it is a named pipe (FIFO)" in refused_promptly(fifo, max_bytes=1024)
    finally:
        stop.set()
        feeder.join(5)
        os.close(feeder_end)


def test_a_path_that_turns_into_a_fifo_after_the_look_is_refused_on_the_open_descriptor(tmp_path, monkeypatch):
    fifo = make_fifo(tmp_path / "f")
    (tmp_path / "regular").write_bytes(b"x")
    looks_regular = os.stat(tmp_path / "regular")
    real_stat = os.stat
    monkeypatch.setattr(
        safe_read.os, "stat", lambda p, *a, **k: looks_regular if Path(p) == fifo else real_stat(p, *a, **k)
    )
    # the open must not block although nothing writes to the pipe; fstat then tells the truth
    assert "it is a named pipe (FIFO)" in refused_promptly(fifo)


def test_a_folder_is_refused(tmp_path):
    assert "it is a folder" in str(refusal(tmp_path))


def test_a_socket_is_refused(tmp_path):
    sock = make_socket(tmp_path / "s")
    try:
        assert "it is a socket" in str(refusal(tmp_path / "s"))
    finally:
        sock.close()


def test_a_device_node_is_refused_without_being_opened(tmp_path, monkeypatch):
    zero = make_device(tmp_path / "zero", 1, 5)  # the numbers of /dev/zero, made in the test's own folder
    if zero is None:
        pytest.skip("device nodes can be made only as root, with CAP_MKNOD")
    opened = []
    real_open = os.open
    monkeypatch.setattr(safe_read.os, "open", lambda p, *a: opened.append(p) or real_open(p, *a))
    assert "it is a character device" in str(refusal(zero))
    assert opened == []


def test_an_unreadable_file_is_a_permission_error(tmp_path):
    secret = tmp_path / "secret.json"
    secret.write_bytes(b"{}")
    secret.chmod(0)
    try:
        try:
            secret.read_bytes()
        except PermissionError:
            pass
        else:
            pytest.skip("this user (root) reads files without read permission anyway")
        error = refusal(secret)
    finally:
        secret.chmod(0o644)
    assert isinstance(error, PermissionError) and "Permission denied" in str(error)


def test_a_name_with_a_nul_character_is_refused(tmp_path):
    assert "the name holds a NUL character" in str(refusal(tmp_path / "a\0b"))


def test_a_name_over_the_limit_is_one_line(tmp_path):
    error = refusal(tmp_path / ("x" * 300 + ".json"))
    assert error.errno == errno.ENAMETOOLONG


# --- the size limit ----------------------------------------------------------------------------


def test_a_file_over_the_limit_is_refused(tmp_path):
    (tmp_path / "big.json").write_bytes(b"x" * 101)
    error = refusal(tmp_path / "big.json", max_bytes=100)
    assert error.errno == errno.EFBIG
    assert f"larger than the limit of 100 bytes for input files (set {MAX_INPUT_ENV} to change it)" in str(error)


def test_a_file_at_the_limit_is_read(tmp_path):
    (tmp_path / "t.json").write_bytes(b"x" * 100)
    assert len(read_input_bytes(tmp_path / "t.json", max_bytes=100)) == 100


def test_a_file_that_grows_past_its_size_is_read_only_to_the_limit(tmp_path, monkeypatch):
    (tmp_path / "t.json").write_bytes(b"x" * 5000)
    claims_small = os.stat(tmp_path / "t.json")
    fake = os.stat_result((claims_small.st_mode, *claims_small[1:6], 10, *claims_small[7:]))  # st_size 10
    asked = []
    monkeypatch.setattr(safe_read.os, "fstat", lambda fd: asked.append(fd) or fake)
    assert read_input_bytes(tmp_path / "t.json") == b"x" * 5000  # no limit reached: all of it
    assert "larger than the limit of 1000 bytes" in str(refusal(tmp_path / "t.json", max_bytes=1000))
    assert len(asked) == 2  # both reads went by the size the descriptor claimed


def test_the_limit_comes_from_the_environment(tmp_path, monkeypatch):
    (tmp_path / "t.json").write_bytes(b"x" * 11)
    monkeypatch.setenv(MAX_INPUT_ENV, "10")
    assert "limit of 10 bytes" in str(refusal(tmp_path / "t.json"))
    assert read_input_bytes(tmp_path / "t.json", max_bytes=11) == b"x" * 11  # the argument wins


@pytest.mark.parametrize("text", ["lots", "0", "-5", "1.5"])
def test_a_bad_limit_in_the_environment_is_named(tmp_path, monkeypatch, text):
    (tmp_path / "t.json").write_bytes(b"x")
    monkeypatch.setenv(MAX_INPUT_ENV, text)
    assert f"{MAX_INPUT_ENV}={text!r} is not a whole number of bytes from 1" in str(refusal(tmp_path / "t.json"))


def test_the_default_limit_is_this_machines_memory(monkeypatch):
    assert max_input_bytes() == machine_memory_bytes() > 0
    monkeypatch.setattr(os, "sysconf", lambda _name: -1)  # a system that does not say
    assert max_input_bytes() == DEFAULT_MAX_INPUT_BYTES == 2**31
    with pytest.raises(ValueError, match="from 1"):
        max_input_bytes(0)


# --- gzip --------------------------------------------------------------------------------------


def test_gzip_is_recognised_by_its_content_not_its_name(tmp_path):
    (tmp_path / "run.json").write_bytes(gzip.compress(b'{"a": 1}'))
    (tmp_path / "plain.gz").write_bytes(b'{"b": 2}')
    assert read_input_bytes(tmp_path / "run.json") == b'{"a": 1}'
    assert read_input_bytes(tmp_path / "plain.gz") == b'{"b": 2}'


def test_concatenated_gzip_members_are_read_whole(tmp_path):
    (tmp_path / "t.json.gz").write_bytes(gzip.compress(b"one ") + gzip.compress(b"two"))
    assert read_input_bytes(tmp_path / "t.json.gz") == b"one two"


def test_a_gzip_bomb_is_stopped_at_the_limit(tmp_path):
    (tmp_path / "bomb.json.gz").write_bytes(gzip.compress(b"\0" * (32 * 1024**2), compresslevel=9))
    assert (tmp_path / "bomb.json.gz").stat().st_size < 100_000
    error = refusal(tmp_path / "bomb.json.gz", max_bytes=1024**2)
    assert "it decompresses to more than the limit of 1048576 bytes" in str(error)


@pytest.mark.parametrize(
    ("content", "problem"),
    [(b"\x1f\x8b" + b"garbage" * 10, "not valid gzip"), (gzip.compress(b"x" * 1000)[:-12], "not valid gzip")],
    ids=["damaged", "cut short"],
)
def test_broken_gzip_is_one_line(tmp_path, content, problem):
    (tmp_path / "t.json").write_bytes(content)
    assert problem in str(refusal(tmp_path / "t.json"))


@settings(max_examples=60, deadline=None)
@given(data=st.binary(max_size=300), limit=st.integers(1, 300), compressed=st.booleans())
def test_any_content_comes_back_exactly_or_is_refused_by_size(data, limit, compressed):
    assume(compressed or not data.startswith(GZIP_MAGIC))  # plain data that starts so is taken for gzip
    with tempfile.TemporaryDirectory() as name:
        path = Path(name) / "input"
        path.write_bytes(gzip.compress(data) if compressed else data)
        if len(data) <= limit:
            assert read_input_bytes(path, max_bytes=limit) == data
        else:
            assert refusal(path, max_bytes=limit).errno == errno.EFBIG
