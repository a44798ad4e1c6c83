"""The command line's files: special destinations and inputs, long names, kills mid-write.

Each case ends with exit 0 and valid output, or exit 2 and one line on stderr; either way
nothing in the test's folder changes but the destination.
"""

import csv
import gzip
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cli_runs import run_cli
from fake_backend import FakeBackend
from fs_snapshot import make_device, make_fifo, make_socket, partials, permissions_hold, snapshot

from overlapviz import presets
from overlapviz.commands.errors import UsageError
from overlapviz.core.config import PipelineConfig
from overlapviz.core.files.file_system import name_limit
from overlapviz.core.files.safe_read import MAX_INPUT_ENV
from overlapviz.core.files.trace_export import export_chrome
from overlapviz.core.files.trace_import import import_chrome

REPO = Path(__file__).resolve().parents[1]
SMALL_RUN = ("run", "--backend", "sim", "--size", "1MiB")




def assert_one_line_exit_2(code, out, err, *words):
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("overlapviz: error: "), err
    for word in words:
        assert word in err


@pytest.fixture
def folder(tmp_path):
    where = tmp_path / "out"
    where.mkdir()
    return where


def special(folder: Path, kind: str) -> Path:
    """A destination of the given kind in `folder`."""
    path = folder / "dest"
    if kind == "fifo":
        make_fifo(path)
    elif kind == "folder":
        path.mkdir()
        (path / "inside").write_text("keep")
    elif kind == "socket":
        make_socket(path).close()  # the node stays
    elif kind == "device":
        if make_device(path, 1, 3) is None:
            pytest.skip("device nodes can be made only as root, with CAP_MKNOD")
    elif kind == "link-to-fifo":
        make_fifo(folder / "pipe")
        path.symlink_to("pipe")
    elif kind == "dangling-link":
        path.symlink_to("nowhere")
    elif kind == "long-name":
        path = folder / ("n" * (name_limit(folder) + 1))
    return path


KINDS = ["fifo", "folder", "socket", "device", "link-to-fifo", "dangling-link", "long-name"]
REASONS = {
    "fifo": "it is a named pipe (FIFO)",
    "folder": "it is a folder",
    "socket": "it is a socket",
    "device": "it is a character device",
    "link-to-fifo": "which is a named pipe (FIFO)",
    "dangling-link": "which does not exist",
    "long-name": "bytes long; this file system allows at most",
}


@pytest.mark.parametrize("flag", ["--trace", "--csv", "--png"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_special_destination_is_refused_before_the_run(backends, capsys, folder, flag, kind):
    dest = special(folder, kind)
    before = snapshot(folder.parent)
    code, out, err = run_cli(capsys, "run", flag, dest)
    assert_one_line_exit_2(code, out, err, f"cannot write {dest}: ", REASONS[kind])
    assert snapshot(folder.parent) == before
    assert backends["sim"].calls == []


@pytest.mark.parametrize("kind", ["fifo", "device", "long-name"])
def test_render_to_a_special_destination_is_refused(capsys, folder, kind):
    trace = folder / "run.json"
    export_chrome(FakeBackend().run(PipelineConfig(chunks=4)), trace)
    dest = special(folder, kind)
    before = snapshot(folder)
    code, out, err = run_cli(capsys, "render", trace, "-o", dest)
    assert_one_line_exit_2(code, out, err, f"cannot write {dest}: ", REASONS[kind])
    assert snapshot(folder) == before


def test_a_comparison_cannot_derive_names_from_the_root(backends, capsys, tmp_path, monkeypatch):
    (tmp_path / "pair.toml").write_text(PAIR)
    monkeypatch.setattr(presets, "presets_folder", lambda: tmp_path)
    code, out, err = run_cli(capsys, "run", "--preset", "pair", "--trace", "/")
    assert_one_line_exit_2(code, out, err, "cannot write /: it is a folder")


def test_a_trace_through_a_link_lands_in_its_target(backends, capsys, folder):
    real = folder / "real.json"
    real.write_text("old")
    (folder / "link.json").symlink_to("real.json")
    code, out, _ = run_cli(capsys, "run", "--chunks", "4", "--trace", folder / "link.json")
    assert code == 0 and f"wrote      {folder / 'link.json'}" in out
    assert os.readlink(folder / "link.json") == "real.json"
    assert len(import_chrome(real)) == len(FakeBackend().run(PipelineConfig(chunks=4)))
    assert sorted(os.listdir(folder)) == ["link.json", "real.json"]


def test_every_output_of_a_run_lands_at_the_end_picture_through_a_link(qapp, capsys, folder):
    (folder / "pictures").mkdir()
    (folder / "pictures" / "latest.png").write_bytes(b"old picture")
    (folder / "run.png").symlink_to("pictures/latest.png")
    files = ("--trace", folder / "run.json", "--csv", folder / "run.csv", "--png", folder / "run.png")
    code, out, err = run_cli(capsys, *SMALL_RUN, "--chunks", "4", *files)
    assert (code, err) == (0, "")
    assert out.count("wrote      ") == 3
    assert (folder / "pictures" / "latest.png").read_bytes().startswith(b"\x89PNG")
    assert os.readlink(folder / "run.png") == "pictures/latest.png"
    assert import_chrome(folder / "run.json").meta.config["chunks"] == 4
    assert partials(folder) == [] and partials(folder / "pictures") == []


def test_a_gzip_trace_renders(qapp, capsys, folder):
    export_chrome(FakeBackend().run(PipelineConfig(chunks=4)), folder / "run.json")
    (folder / "run.json.gz").write_bytes(gzip.compress((folder / "run.json").read_bytes()))
    code, _, err = run_cli(capsys, "render", folder / "run.json.gz", "-o", folder / "run.png")
    assert (code, err) == (0, "")
    assert (folder / "run.png").read_bytes().startswith(b"\x89PNG")


def test_a_read_only_folder_is_one_line(backends, capsys, folder):
    if not permissions_hold(folder):
        pytest.skip("this user (root) writes into read-only folders anyway")
    folder.chmod(0o555)
    try:
        code, out, err = run_cli(capsys, "run", "--trace", folder / "t.json")
    finally:
        folder.chmod(0o755)
    assert_one_line_exit_2(code, out, err, f"no permission to write in {folder}")
    assert os.listdir(folder) == []


def test_a_failure_before_the_end_leaves_the_old_outputs_whole(backends, capsys, folder, monkeypatch):
    trace, table = folder / "run.json", folder / "run.csv"
    trace.write_text("old trace")
    table.write_text("old table")

    def picture_fails(*args):
        raise UsageError("cannot draw")

    monkeypatch.setattr("overlapviz.commands.run.draw", picture_fails)
    monkeypatch.setattr("overlapviz.commands.run.check_picture", lambda *args: None)
    code, out, err = run_cli(capsys, "run", "--trace", trace, "--csv", table, "--png", folder / "run.png")
    assert_one_line_exit_2(code, out, err, "cannot draw")
    assert (trace.read_text(), table.read_text()) == ("old trace", "old table")
    assert sorted(os.listdir(folder)) == ["run.csv", "run.json"]


# --- inputs ----------------------------------------------------------------------------------


def test_rendering_a_fifo_is_refused_not_awaited(folder):
    fifo = make_fifo(folder / "trace.json")
    done = subprocess.run(
        [sys.executable, "-m", "overlapviz", "render", str(fifo), "-o", str(folder / "x.png")],
        capture_output=True, text=True, timeout=60, cwd=REPO,
    )  # fmt: skip
    assert_one_line_exit_2(done.returncode, done.stdout, done.stderr, f"cannot read {fifo}: it is a named pipe")
    assert sorted(os.listdir(folder)) == ["trace.json"]


@pytest.mark.parametrize("kind", ["folder", "device", "long-name", "too-big"])
def test_rendering_a_special_input_is_one_line(capsys, folder, monkeypatch, kind):
    if kind == "too-big":
        source = folder / "big.json"
        export_chrome(FakeBackend().run(PipelineConfig(chunks=4)), source)
        monkeypatch.setenv(MAX_INPUT_ENV, "100")
        reason = "larger than the limit of 100 bytes"
    elif kind == "device":
        source = make_device(folder / "zero", 1, 5)
        if source is None:
            pytest.skip("device nodes can be made only as root, with CAP_MKNOD")
        reason = "it is a character device"
    else:
        source = special(folder, kind)
        reason = {"folder": "it is a folder", "long-name": "File name too long"}[kind]
    before = snapshot(folder)
    code, out, err = run_cli(capsys, "render", source, "-o", folder / "x.png")
    assert_one_line_exit_2(code, out, err, f"cannot read {source}: ", reason)
    assert snapshot(folder) == before


def test_a_gzip_trace_reads_like_the_plain_one(folder):
    trace = FakeBackend().run(PipelineConfig(chunks=4))
    export_chrome(trace, folder / "run.json")
    (folder / "run.json.gz").write_bytes(gzip.compress((folder / "run.json").read_bytes()))
    assert import_chrome(folder / "run.json.gz").meta == import_chrome(folder / "run.json").meta


PAIR = textwrap.dedent("""
    title = "A pair"
    text = "Pageable first. Pinned second."
    [a]
    label = "pageable"
    memory = "pageable"
    size = "1MiB"
    [b]
    label = "pinned"
    size = "1MiB"
""")


def test_a_preset_name_over_the_limit_is_one_line(backends, capsys):
    code, out, err = run_cli(capsys, "run", "--preset", "p" * 300)
    assert_one_line_exit_2(code, out, err, "unknown preset 'ppp")


def test_a_preset_saved_with_a_byte_order_mark_is_read(backends, capsys, tmp_path, monkeypatch):
    (tmp_path / "bom.toml").write_bytes("\ufeff".encode() + PAIR.encode())
    monkeypatch.setattr(presets, "presets_folder", lambda: tmp_path)
    code, _, err = run_cli(capsys, "run", "--preset", "bom", "--json")
    assert (code, err) == (0, "")


PRESETS_IN = """
import sys
from pathlib import Path
from overlapviz import presets
from overlapviz.commands.main import main
presets.presets_folder = lambda: Path(sys.argv[1])
sys.exit(main(["presets"]))
"""


def test_a_fifo_among_the_presets_is_refused_not_awaited(tmp_path):
    (tmp_path / "pair.toml").write_text(PAIR)
    fifo = make_fifo(tmp_path / "stuck.toml")
    done = subprocess.run(
        [sys.executable, "-c", PRESETS_IN, str(tmp_path)], capture_output=True, text=True, timeout=60, cwd=REPO
    )
    assert_one_line_exit_2(done.returncode, done.stdout, done.stderr, f"{fifo}: cannot be read (it is a named pipe")


# --- killed while writing ---------------------------------------------------------------------

KILLED_RUN = """
import sys, time
from overlapviz.commands.main import main
from overlapviz.core.files import atomic_write as atomic
call, stop_at = sys.argv[1], int(sys.argv[2])
real = getattr(atomic.os, call)
seen = []
def stall(*args):
    seen.append(args)
    if len(seen) == stop_at:
        print("stalled", flush=True)
        time.sleep(60)
    return real(*args)
setattr(atomic.os, call, stall)
main(sys.argv[3:])
"""


def killed_during(call: str, stop_at: int, argv: list[str]) -> None:
    """Run the CLI in a child, kill -9 it at the `stop_at`-th `os.<call>` of the writer."""
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED_RUN, call, str(stop_at), *argv], stdout=subprocess.PIPE, text=True, cwd=REPO
    )
    try:
        assert child.stdout.readline().strip() == "stalled"
    finally:
        child.kill()
        child.wait(10)
        child.stdout.close()


def outputs(folder: Path, chunks: int) -> list[str]:
    return [*SMALL_RUN, "--chunks", str(chunks), "--trace", str(folder / "big.json"), "--csv", str(folder / "big.csv")]


def chunks_in(folder: Path) -> tuple[int, int]:
    """The chunk count of the run in the trace, and of the run in the CSV."""
    with open(folder / "big.csv", newline="") as table:
        chunks = {int(row["chunk"]) for row in csv.DictReader(table)} - {-1}
    return import_chrome(folder / "big.json").meta.config["chunks"], len(chunks)


@pytest.mark.parametrize(
    ("call", "stop_at", "after_kill"),
    [("fsync", 2, (4, 4)), ("replace", 2, (8, 4))],
    ids=["while-writing-the-partial-files", "between-the-renames"],
)
def test_a_run_killed_mid_write_is_cleaned_up_by_the_next(capsys, folder, call, stop_at, after_kill):
    assert run_cli(capsys, *outputs(folder, 4))[0] == 0
    killed_during(call, stop_at, outputs(folder, 8))
    assert chunks_in(folder) == after_kill  # killed before the renames: the old set; between: as far as it got
    assert len(partials(folder)) == (2 if call == "fsync" else 1)
    assert run_cli(capsys, *outputs(folder, 8))[0] == 0
    assert chunks_in(folder) == (8, 8)
    assert sorted(os.listdir(folder)) == ["big.csv", "big.json"]
    assert all(stat.S_ISREG(os.lstat(folder / name).st_mode) for name in os.listdir(folder))
