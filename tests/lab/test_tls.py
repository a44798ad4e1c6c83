"""The lab server over HTTPS (``serve --tls-cert/--tls-key``) and a learner's client that checks its certificate.

The certificate is a throwaway self-signed one made with the ``openssl`` command line in the
test's own folder, as an instructor would make one for a class's network.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from overlapviz.commands.main import main
from overlapviz.core.config import PipelineConfig
from overlapviz.lab.client import CA_FILE_ENV, LabClient
from overlapviz.lab.client_result import lab_run
from overlapviz.lab.follow_client import FollowStream
from tests.cli_runs import run_cli
from tests.lab.lab_server import LabServer


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(certificate, key): self-signed, for 127.0.0.1 and localhost, a day long."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("no openssl command line here to make a throwaway certificate with")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return cert, key


@pytest.fixture(scope="module")
def https_server(certificate: tuple[Path, Path]) -> Iterator[LabServer]:
    cert, key = certificate
    server = LabServer.start("--tls-cert", str(cert), "--tls-key", str(key))
    yield server
    assert server.stop() == 0
    assert "Traceback" not in server.stderr()


@pytest.fixture(autouse=True)
def no_trust_from_outside(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CA_FILE_ENV, raising=False)
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["run", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_server_says_its_https_address(https_server: LabServer) -> None:
    assert https_server.url.startswith("https://127.0.0.1:")


def test_a_run_over_https_trusting_the_class_certificate(
    https_server: LabServer, certificate: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    flags = ["--chunks", "8", "--memory", "pageable"]
    code, remote, err = run(
        capsys, "--server", https_server.url, "--token", https_server.token, "--ca-file", str(certificate[0]), *flags
    )
    assert code == 0, err
    assert "8 chunks" in remote and "pageable" in remote and "NVIDIA H200" in remote


def test_the_environment_names_the_certificate_for_runs_and_following(
    https_server: LabServer, certificate: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CA_FILE_ENV, str(certificate[0]))
    instructor = LabClient(https_server.url, https_server.printed["instructor token"], "instructor")
    stream = FollowStream(LabClient(https_server.url, https_server.token, "follower"))
    arrived: list[dict] = []
    reader = threading.Thread(target=lambda: arrived.extend([next(iter(stream))]), daemon=True)
    reader.start()
    for _ in range(100):  # until the server counts the follower
        if instructor.status()["followers"] >= 1:
            break
        threading.Event().wait(0.1)
    instructor.run(PipelineConfig(chunks=5).to_dict())
    reader.join(60)
    stream.close()
    assert lab_run(arrived[0], https_server.url).config == PipelineConfig(chunks=5)


def test_a_certificate_nobody_trusts_is_refused_in_one_line(
    https_server: LabServer, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "--server", https_server.url, "--token", https_server.token)
    assert code == 2 and out == ""
    (line,) = err.strip().splitlines()
    assert f"cannot reach the lab server at {https_server.url}" in line and "certificate verify failed" in line
    assert "--ca-file" in line and CA_FILE_ENV in line


def test_a_ca_file_that_holds_no_certificate_is_said(
    https_server: LabServer, certificate: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    key = str(certificate[1])
    code, _, err = run(capsys, "--server", https_server.url, "--token", https_server.token, "--ca-file", key)
    assert code == 2
    (line,) = err.strip().splitlines()
    assert line.startswith(f"overlapviz: error: --ca-file / ${CA_FILE_ENV} {key}: no certificates can be read from it")


@pytest.mark.parametrize("broken", ["cert", "key"])
def test_serve_with_tls_files_it_cannot_load_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], certificate: tuple[Path, Path], tmp_path: Path, broken: str
) -> None:
    cert, key = certificate
    missing = tmp_path / "missing.pem"
    flags = ["--tls-cert", missing if broken == "cert" else cert, "--tls-key", missing if broken == "key" else key]
    code, out, err = run_cli(capsys, "serve", "--backend", "sim", "--port", "0", *flags)
    assert code == 2 and out == ""
    (line,) = err.strip().splitlines()
    assert "cannot be loaded" in line and str(missing) in line
