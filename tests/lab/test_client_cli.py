"""`overlapviz run --server`: the same run as here, made on a real lab server (the model behind it)."""

from __future__ import annotations

import errno
import json
import os
import re
import socket
from pathlib import Path

import pytest

from overlapviz.commands.main import main
from overlapviz.importers.read import read_trace_file
from tests.lab.lab_client_server import LabAccess, access
from tests.lab.lab_server import LabServer, shared_lab_server  # noqa: F401 (the server fixture)

ERRNO, REFUSED = errno.ECONNREFUSED, os.strerror(errno.ECONNREFUSED)
RUN_TOOK = re.compile(r", run took [^,\n]+")  # the one figure that is the machine's, not the run's


@pytest.fixture
def server(lab_server: LabServer) -> LabAccess:
    return access(lab_server)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["run", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_summary_is_a_local_runs(server: LabAccess, capsys: pytest.CaptureFixture[str]) -> None:
    flags = ["--chunks", "8", "--streams", "2", "--memory", "pageable"]
    code, remote, _ = run(capsys, "--server", server.url, "--token", server.join_code, *flags)
    _, local, _ = run(capsys, "--backend", "sim", *flags)
    assert code == 0
    assert "8 chunks" in remote and "pageable" in remote
    assert RUN_TOOK.sub("", remote) == RUN_TOOK.sub("", local)


def test_a_comparison_preset_sends_both_sides(server: LabAccess, capsys: pytest.CaptureFixture[str]) -> None:
    code, remote, _ = run(capsys, "--server", server.url, "--token", server.class_token, "--preset", "chunks-too-few")
    _, local, _ = run(capsys, "--backend", "sim", "--preset", "chunks-too-few")
    assert code == 0
    assert "== A: " in remote and "== B: " in remote
    assert RUN_TOOK.sub("", remote) == RUN_TOOK.sub("", local)


def test_json_is_the_servers_answer(
    server: LabAccess, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OVERLAPVIZ_TOKEN", server.join_code)
    code, out, _ = run(capsys, "--server", server.url, "--chunks", "4", "--json")
    _, here, _ = run(capsys, "--backend", "sim", "--chunks", "4", "--json")
    remote, local = json.loads(out), json.loads(here)
    assert code == 0
    assert remote["server"]["url"] == server.url and "trace" not in remote
    assert {k: v for k, v in remote.items() if k not in ("server", "wall_s")} == {
        k: v for k, v in local.items() if k != "wall_s"
    }


def test_files_are_written_from_the_rebuilt_run(
    server: LabAccess, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    trace, csv, png = tmp_path / "lab.json", tmp_path / "lab.csv", tmp_path / "lab.png"
    code, out, _ = run(
        capsys,
        "--server",
        server.url,
        "--token",
        server.join_code,
        "--trace",
        str(trace),
        "--csv",
        str(csv),
        "--png",
        str(png),
    )
    local = tmp_path / "here.json"
    run(capsys, "--backend", "sim", "--trace", str(local))
    assert code == 0 and f"wrote      {trace}" in out
    remote_trace, local_trace = read_trace_file(trace), read_trace_file(local)
    assert len(remote_trace) == len(local_trace) > 0
    assert (remote_trace["end_ns"] == local_trace["end_ns"]).all()
    assert csv.read_text().count("\n") == len(local_trace) + 1
    assert png.read_bytes().startswith(b"\x89PNG")


def test_a_wrong_token_is_one_line_and_exit_2(server: LabAccess, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--server", server.url, "--token", "WRONG-CODE")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        "overlapviz: error: the join code was not accepted (check it with your instructor)"
    ]


def test_bad_settings_say_the_servers_reason(server: LabAccess, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--server", server.url, "--token", server.join_code, "--device", "no-such-gpu")
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "no-such-gpu" in err


def test_an_unreachable_server_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    code, out, err = run(capsys, "--server", f"127.0.0.1:{port}", "--token", "ABCD-EFGH")
    assert code == 2 and out == ""
    said = f"overlapviz: error: cannot reach the lab server at http://127.0.0.1:{port}: [Errno {ERRNO}] {REFUSED}"
    assert err.strip().splitlines() == [said]


def test_no_token_is_said_before_anything_is_sent(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OVERLAPVIZ_TOKEN", raising=False)
    code, _, err = run(capsys, "--server", "http://127.0.0.1:9")
    assert code == 2 and "--token" in err and "OVERLAPVIZ_TOKEN" in err
