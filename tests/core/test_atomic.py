import os
from pathlib import Path

import pytest

from overlapviz.core import atomic
from overlapviz.core.atomic import atomic_write_bytes, atomic_write_text


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


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root ignores folder permissions")
def test_read_only_folder_raises_permission_error(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
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
