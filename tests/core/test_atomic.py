import errno
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from fs_snapshot import describe, make_device, make_fifo, make_socket, partials, permissions_hold, snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

from overlapviz.core.files import atomic_write as atomic
from overlapviz.core.files import partial_files
from overlapviz.core.files.atomic_write import atomic_write_bytes, atomic_write_text, written_together
from overlapviz.core.files.file_system import name_limit
from overlapviz.core.files.write_destination import DestinationError, check_destination, resolve_destination


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_writes_new_file(tmp_path):
    target = tmp_path / "out.json"
    atomic_write_text(target, "héllo\n")
    assert target.read_text(encoding="utf-8") == "héllo\n"
    assert leftovers(tmp_path) == ["out.json"]


def test_replaces_existing_file_whole(tmp_path):
    target = tmp_path / "out.bin"
    target.write_bytes(b"old contents that are longer")
    atomic_write_bytes(target, b"new")
    assert target.read_bytes() == b"new"
    assert leftovers(tmp_path) == ["out.bin"]


def test_new_file_follows_umask_not_private_temp_mode(tmp_path):
    old = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "x.csv", "a")
    finally:
        os.umask(old)
    assert (tmp_path / "x.csv").stat().st_mode & 0o777 == 0o644


def test_missing_folder_raises_oserror_naming_path(tmp_path):
    target = tmp_path / "no-such-folder" / "out.json"
    with pytest.raises(FileNotFoundError) as caught:
        atomic_write_text(target, "x")
    assert str(target) in str(caught.value)
    assert leftovers(tmp_path) == []


def test_parent_is_a_file_raises_oserror_naming_path(tmp_path):
    (tmp_path / "file").write_text("x")
    target = tmp_path / "file" / "out.json"
    with pytest.raises(OSError) as caught:
        atomic_write_text(target, "x")
    assert str(target) in str(caught.value)
    assert leftovers(tmp_path) == ["file"]


def test_read_only_folder_raises_permission_error(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    if not permissions_hold(folder):
        pytest.skip("this user (root) writes into read-only folders anyway")
    folder.chmod(0o555)
    try:
        with pytest.raises(PermissionError) as caught:
            atomic_write_text(folder / "out.json", "x")
        assert str(folder / "out.json") in str(caught.value)
        assert leftovers(folder) == []
    finally:
        folder.chmod(0o755)


def test_failure_while_writing_leaves_old_file_and_no_temp(tmp_path, monkeypatch):
    target = tmp_path / "out.json"
    target.write_text("old")

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", disk_full)
    with pytest.raises(OSError) as caught:
        atomic_write_text(target, "new")
    assert caught.value.errno == 28
    assert str(target) in str(caught.value)
    assert target.read_text() == "old"
    assert leftovers(tmp_path) == ["out.json"]


def test_failure_in_rename_removes_temp(tmp_path):
    target = tmp_path / "a-folder"
    target.mkdir()
    (target / "inside").write_text("keep")
    with pytest.raises(OSError) as caught:
        atomic_write_text(target, "x")  # a non-empty folder cannot be replaced by a file
    assert str(target) in str(caught.value)
    assert leftovers(tmp_path) == ["a-folder"]
    assert (target / "inside").read_text() == "keep"


def test_error_without_errno_still_names_path(tmp_path, monkeypatch):
    def broken(*args):
        raise OSError("device went away")

    monkeypatch.setattr(atomic.os, "replace", broken)
    target = tmp_path / "out.json"
    with pytest.raises(OSError, match=r"cannot write .*out\.json: device went away"):
        atomic_write_text(target, "x")
    assert leftovers(tmp_path) == []


# --- what may be at the destination ----------------------------------------------------------


def refused(target: Path, data: bytes = b"new") -> DestinationError:
    """Write to `target`, expect a refusal, and check that nothing in its folder changed."""
    folder = target.parent
    before = snapshot(folder)
    with pytest.raises(DestinationError) as caught:
        atomic_write_bytes(target, data)
    assert snapshot(folder) == before
    assert str(caught.value).startswith(f"cannot write {target}: ")
    return caught.value


def test_a_fifo_is_refused_and_stays_a_fifo(tmp_path):
    fifo = make_fifo(tmp_path / "f")
    error = refused(fifo)
    assert "it is a named pipe (FIFO)" in str(error)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_socket_is_refused(tmp_path):
    sock = make_socket(tmp_path / "s")
    try:
        assert "it is a socket" in str(refused(tmp_path / "s"))
    finally:
        sock.close()


def test_an_empty_folder_is_refused(tmp_path):
    (tmp_path / "d").mkdir()
    assert str(refused(tmp_path / "d")) == f"cannot write {tmp_path / 'd'}: it is a folder"


def test_a_device_node_is_refused_and_left_alone(tmp_path):
    null = make_device(tmp_path / "null", 1, 3)  # the numbers of /dev/null, made in the test's own folder
    if null is None:
        pytest.skip("device nodes can be made only as root, with CAP_MKNOD")
    assert "it is a character device" in str(refused(null))
    assert stat.S_ISCHR(os.lstat(null).st_mode) and os.lstat(null).st_rdev == os.makedev(1, 3)


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    (tmp_path / "sub").mkdir()
    link = tmp_path / "sub" / "link.json"
    link.symlink_to("../real.json")
    atomic_write_text(link, "new")
    assert real.read_text() == "new"
    assert os.readlink(link) == "../real.json"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["real.json", "sub"]


def test_a_chain_of_links_ends_at_the_file(tmp_path):
    real = tmp_path / "real"
    real.write_text("old")
    (tmp_path / "one").symlink_to(real)
    (tmp_path / "two").symlink_to("one")
    atomic_write_text(tmp_path / "two", "new")
    assert real.read_text() == "new" and os.readlink(tmp_path / "two") == "one"


def test_a_link_to_nothing_is_refused(tmp_path):
    (tmp_path / "link").symlink_to(tmp_path / "absent")
    assert "it is a symbolic link to " in str(refused(tmp_path / "link"))


def test_a_loop_of_links_is_refused(tmp_path):
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    assert refused(tmp_path / "a").errno == errno.ELOOP


def test_a_link_to_a_fifo_is_refused(tmp_path):
    make_fifo(tmp_path / "f")
    (tmp_path / "link").symlink_to("f")
    assert "which is a named pipe (FIFO)" in str(refused(tmp_path / "link"))


def test_a_name_over_the_limit_is_refused_before_anything_is_made(tmp_path):
    name = "x" * (name_limit(tmp_path) + 1)
    error = refused(tmp_path / name)
    assert error.errno == errno.ENAMETOOLONG
    assert f"is {len(name)} bytes long; this file system allows at most {name_limit(tmp_path)}" in str(error)


def test_a_name_with_a_nul_character_is_refused(tmp_path):
    assert "the name holds a NUL character" in str(refused(tmp_path / "a\0b"))


def test_a_name_at_the_limit_is_written(tmp_path):
    target = tmp_path / ("é" * (name_limit(tmp_path) // 2))  # two bytes each: the limit counts bytes
    atomic_write_text(target, "x")
    assert leftovers(tmp_path) == [target.name]


def test_replacing_a_file_keeps_its_permissions(tmp_path):
    target = tmp_path / "private.json"
    target.write_text("old")
    target.chmod(0o600)
    atomic_write_text(target, "new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600 and target.read_text() == "new"


def test_check_destination_names_the_missing_folder(tmp_path):
    with pytest.raises(DestinationError, match=r"the folder .*absent does not exist"):
        check_destination(tmp_path / "absent" / "t.json")


KINDS = ("nothing", "file", "link-to-file", "link-to-nothing", "folder", "fifo", "link-to-fifo", "link-loop")


def make_kind(folder: Path, kind: str) -> Path:
    target = folder / "out.json"
    makers = {
        "nothing": lambda: None,
        "file": lambda: target.write_text("old"),
        "link-to-file": lambda: ((folder / "real").write_text("old"), target.symlink_to("real")),
        "link-to-nothing": lambda: target.symlink_to("absent"),
        "folder": lambda: target.mkdir(),
        "fifo": lambda: os.mkfifo(target),
        "link-to-fifo": lambda: (os.mkfifo(folder / "real"), target.symlink_to("real")),
        "link-loop": lambda: target.symlink_to("out.json"),
    }
    makers[kind]()
    return target


@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(KINDS), data=st.binary(max_size=64))
def test_any_destination_is_written_whole_or_refused_untouched(kind, data):
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        target = make_kind(folder, kind)
        before = snapshot(folder)
        try:
            atomic_write_bytes(target, data)
        except DestinationError:
            assert snapshot(folder) == before
            assert kind not in ("nothing", "file", "link-to-file")
            return
        real = resolve_destination(target)
        assert real.read_bytes() == data and stat.S_ISREG(os.lstat(real).st_mode)
        assert describe(target)[0] == ("link" if kind == "link-to-file" else "file")
        assert partials(folder) == []


# --- partial files -----------------------------------------------------------------------------


def test_the_partial_file_says_what_it_is(tmp_path, monkeypatch):
    seen = []
    real_fsync = os.fsync

    def look(fd):
        seen.extend(os.listdir(tmp_path))
        real_fsync(fd)

    monkeypatch.setattr(atomic.os, "fsync", look)
    atomic_write_text(tmp_path / "run.json", "x")
    (partial,) = (name for name in seen if name != "run.json")
    assert partial.startswith(f".run.json.overlapviz-partial-{os.getpid()}-")
    assert partial_files.writer_of(partial) == os.getpid()


def test_a_partial_name_fits_even_a_file_system_of_short_names(monkeypatch):
    monkeypatch.setattr(partial_files, "name_limit", lambda folder: 16)
    name = partial_files.partial_path(Path("/x/run.json")).name
    assert name.startswith(".") and partial_files.writer_of(name) == os.getpid()


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_stale_partials_of_gone_writers_are_removed_before_writing(tmp_path):
    gone = dead_pid()
    stale = tmp_path / f".big.json.overlapviz-partial-{gone}-0123456789ab"
    stale.write_bytes(b"half")
    live = tmp_path / f".big.json.overlapviz-partial-{os.getppid()}-0123456789ab"
    live.write_bytes(b"being written")
    (tmp_path / f".dir.overlapviz-partial-{gone}-0123456789ab").mkdir()  # named so, but not a file
    (tmp_path / f"x.overlapviz-partial-{gone}-0123456789ab").write_text("not hidden: not ours")
    atomic_write_text(tmp_path / "other.csv", "x")
    assert not stale.exists()
    assert leftovers(tmp_path) == sorted([
        live.name, f".dir.overlapviz-partial-{gone}-0123456789ab",
        f"x.overlapviz-partial-{gone}-0123456789ab", "other.csv",
    ])  # fmt: skip


def test_a_killed_writer_leaves_a_partial_file_that_the_next_write_removes(tmp_path):
    target = tmp_path / "big.json"
    target.write_text("old")
    writer = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(target)], stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout.readline().strip() == "writing"
        writer.kill()
        writer.wait(10)
    finally:
        writer.kill()
        writer.stdout.close()
    assert len(partials(tmp_path)) == 1 and target.read_text() == "old"
    atomic_write_text(tmp_path / "next.csv", "x")
    assert leftovers(tmp_path) == ["big.json", "next.csv"]


KILLED_WRITER = """
import os, sys, time
from overlapviz.core.files import atomic_write as atomic
def stall(fd):
    print("writing", flush=True)
    time.sleep(60)
atomic.os.fsync = stall
atomic.atomic_write_bytes(sys.argv[1], b"n" * 1_000_000)
"""


# --- files written together --------------------------------------------------------------------


def test_files_written_together_appear_at_the_end(tmp_path):
    one, two = tmp_path / "one.json", tmp_path / "two.csv"
    one.write_text("old one")
    with written_together():
        atomic_write_text(one, "new one")
        atomic_write_text(two, "new two")
        assert one.read_text() == "old one" and not two.exists()
        assert len(partials(tmp_path)) == 2
    assert (one.read_text(), two.read_text()) == ("new one", "new two")
    assert leftovers(tmp_path) == ["one.json", "two.csv"]


def test_a_failure_in_the_block_renames_nothing(tmp_path):
    one = tmp_path / "one.json"
    one.write_text("old one")
    with pytest.raises(RuntimeError), written_together():
        atomic_write_text(one, "new one")
        atomic_write_text(tmp_path / "two.csv", "new two")
        raise RuntimeError("the picture failed")
    assert one.read_text() == "old one" and leftovers(tmp_path) == ["one.json"]


def test_a_destination_that_became_a_fifo_stops_every_rename(tmp_path):
    one, two = tmp_path / "one.json", tmp_path / "two.csv"
    with pytest.raises(DestinationError, match=r"two\.csv: it is a named pipe"), written_together():
        atomic_write_text(one, "new one")
        atomic_write_text(two, "new two")
        os.mkfifo(two)
    assert leftovers(tmp_path) == ["two.csv"] and stat.S_ISFIFO(os.lstat(two).st_mode)


def test_a_failed_rename_keeps_the_files_renamed_before_it(tmp_path, monkeypatch):
    one, two = tmp_path / "one.json", tmp_path / "two.csv"
    one.write_text("old one")
    two.write_text("old two")
    real_replace = os.replace

    def second_fails(source, destination):
        if Path(destination) == two:
            raise OSError(errno.EIO, "Input/output error")
        real_replace(source, destination)

    monkeypatch.setattr(atomic.os, "replace", second_fails)
    with pytest.raises(OSError, match=r"two\.csv") as caught, written_together():
        atomic_write_text(one, "new one")
        atomic_write_text(two, "new two")
    assert caught.value.errno == errno.EIO
    assert (one.read_text(), two.read_text()) == ("new one", "old two")
    assert leftovers(tmp_path) == ["one.json", "two.csv"]


def test_a_block_inside_another_joins_it(tmp_path):
    with written_together():
        with written_together():
            atomic_write_text(tmp_path / "inner", "x")
        assert not (tmp_path / "inner").exists()
    assert (tmp_path / "inner").read_text() == "x"
