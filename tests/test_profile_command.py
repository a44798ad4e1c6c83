"""``overlapviz profile``: bad input, the script's own run and ending, and the report, on fake CUPTI and CuPy."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from overlapviz.commands.main import main
from overlapviz.importers.read import read_trace_file
from tests.backends.cupy.test_recording import fake_gpu, issue_loop

HOOK = "overlapviz_profile_test_gpu"  # the module through which a test script makes the fake GPU work


def script(tmp_path: Path, body: str, name: str = "loop.py") -> Path:
    path = tmp_path / name
    path.write_text(f"import sys\nsys.modules[{HOOK!r}].work()\n{body}\n")
    return path


@pytest.fixture
def gpu(monkeypatch):
    """A fake GPU whose work, when a script asks for it, is the pipeline's records with pageable buffers."""
    fake = fake_gpu(monkeypatch)
    hook = ModuleType(HOOK)
    hook.work = lambda: issue_loop(fake)
    monkeypatch.setitem(sys.modules, HOOK, hook)
    return fake


def one_error_line(capsys) -> str:
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert captured.out == "" and len(lines) == 1
    return lines[0]


# --- bad input: one line, exit 2, the script not run ---------------------------------------------


def test_a_missing_script_is_one_line(tmp_path, capsys):
    assert main(["profile", str(tmp_path / "gone.py")]) == 2
    assert one_error_line(capsys) == f"overlapviz: error: {tmp_path / 'gone.py'}: no such script"


def test_a_folder_is_not_a_script(tmp_path, capsys):
    assert main(["profile", "--", str(tmp_path)]) == 2
    assert one_error_line(capsys).endswith("not a file")


def test_an_unknown_option_before_the_script(tmp_path, capsys):
    assert main(["profile", "--bogus", str(script(tmp_path, ""))]) == 2
    assert "--bogus" in one_error_line(capsys)


def test_an_output_that_cannot_be_written_stops_before_the_script_runs(tmp_path, capsys):
    marker = tmp_path / "ran"
    path = script(tmp_path, f"open({str(marker)!r}, 'w').close()")
    assert main(["profile", "--out", str(tmp_path / "no" / "such" / "t.json"), str(path)]) == 2
    assert one_error_line(capsys).startswith("overlapviz: error: ")
    assert not marker.exists()


def test_without_cupy_it_says_so_and_runs_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)
    marker = tmp_path / "ran"
    path = tmp_path / "loop.py"
    path.write_text(f"open({str(marker)!r}, 'w').close()\n")
    assert main(["profile", str(path)]) == 2
    assert "CuPy is not installed" in one_error_line(capsys)
    assert not marker.exists()


def test_python_dash_m_overlapviz_profile_is_the_same_command(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "overlapviz", "profile", str(tmp_path / "gone.py")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [f"overlapviz: error: {tmp_path / 'gone.py'}: no such script"]


# --- the script's run ---------------------------------------------------------------------------------


def test_the_script_runs_as_main_with_its_arguments_and_the_report_follows(tmp_path, capsys, gpu):
    seen = tmp_path / "seen.json"
    facts = "json.dumps([__name__, sys.argv, sys.path[0]])"
    body = f"import json, pathlib\npathlib.Path({str(seen)!r}).write_text({facts})"
    body += "\nprint('hello')"
    path = script(tmp_path, body)
    argv_before, path_before = sys.argv[:], sys.path[:]
    out = tmp_path / "trace.json"
    assert main(["profile", "--out", str(out), "--", str(path), "--epochs", "2"]) == 0
    assert json.loads(seen.read_text()) == ["__main__", [str(path), "--epochs", "2"], str(tmp_path)]
    assert sys.argv == argv_before and sys.path == path_before
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[:2] == ["hello", f"script     {path} --epochs 2"]
    assert lines[2].startswith("recorded   by overlapviz profile (CUPTI), ")
    assert any("pageable, so the driver stages" in line for line in lines)
    assert lines[-1] == f"wrote      {out}" and captured.err == ""
    assert int(read_trace_file(out).device_mask.sum()) == 12


@pytest.mark.parametrize(("name", "start"), [("run.png", b"\x89PNG"), ("run.svg", b"<?xml")])
def test_png_draws_the_recording_with_the_apps_drawing_code(tmp_path, capsys, gpu, name, start):
    picture = tmp_path / name
    assert main(["profile", "--png", str(picture), str(script(tmp_path, ""))]) == 0
    assert f"wrote      {picture}" in capsys.readouterr().out
    assert picture.read_bytes().startswith(start)


def test_a_script_that_raises_still_shows_what_it_recorded_then_says_how_it_ended(tmp_path, capsys, gpu):
    path = script(tmp_path, "x = 1\nraise ValueError('bad\\nbatch')")
    assert main(["profile", str(path)]) == 1
    captured = capsys.readouterr()
    assert "makespan" in captured.out and "findings" in captured.out
    assert captured.err.splitlines() == [f"overlapviz: the script stopped with ValueError: bad batch (at {path}:4)"]


def test_a_script_that_exits_with_an_error_code_fails(tmp_path, capsys, gpu):
    assert main(["profile", str(script(tmp_path, "sys.exit(3)"))]) == 1
    assert capsys.readouterr().err == "overlapviz: the script exited with code 3\n"


def test_a_script_that_exits_with_code_0_does_not_fail(tmp_path, capsys, gpu):
    assert main(["profile", str(script(tmp_path, "sys.exit(0)"))]) == 0
    assert capsys.readouterr().err == ""


def test_json_holds_the_report_alone_and_the_scripts_output_goes_to_stderr(tmp_path, capsys, gpu):
    assert main(["profile", "--json", str(script(tmp_path, "print('hello')"))]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert captured.err == "hello\n"
    assert report["recorded_by"].startswith("overlapviz profile (CUPTI)") and report["script_ending"] is None
    assert "host-blocked-pageable" in {f["code"] for f in report["findings"]}


def test_a_script_that_issued_no_gpu_work_says_so(tmp_path, capsys, gpu):
    path = tmp_path / "idle.py"
    path.write_text("print('nothing on the GPU')\n")
    assert main(["profile", str(path)]) == 1
    assert capsys.readouterr().err == f"overlapviz: {path} issued no host-device copy and no kernel: nothing to show\n"


def test_a_window_that_holds_nothing_is_bad_usage(tmp_path, capsys, gpu):
    out = tmp_path / "trace.json"
    assert main(["profile", "--window", "5000:6000", "--out", str(out), str(script(tmp_path, ""))]) == 2
    assert one_error_line(capsys).startswith("overlapviz: error: --window: ")
    assert not out.exists()


def test_a_gpu_left_broken_by_the_script_is_one_line_not_a_traceback(tmp_path, capsys, gpu, monkeypatch):
    def broken():
        raise RuntimeError("cudaErrorIllegalAddress: an illegal memory access was encountered")

    monkeypatch.setattr(gpu.runtime, "deviceSynchronize", broken)
    assert main(["profile", str(script(tmp_path, "raise IndexError('out of range')"))]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        "overlapviz: error: the recording could not be finished: cudaErrorIllegalAddress: an illegal memory access"
        " was encountered",
        f"overlapviz: the script stopped with IndexError: out of range (at {tmp_path / 'loop.py'}:3)",
    ]
