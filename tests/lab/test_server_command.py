"""``overlapviz serve`` refuses what it cannot serve with one line and exit code 2, before it starts anything."""

import pytest

from tests.cli_runs import run_cli


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--port", "70000"], "--port: 70000 is not a port"),
        (["--rate", "0"], "must be above 0"),
        (["--tls-cert", "c.pem"], "--tls-cert and --tls-key go together"),
        (["--devices", "h200,nope"], "'nope' is not a device of the sim backend"),
        (["--queue", "nowhere://x"], "--queue nowhere://x"),
    ],
)
def test_serve_refuses_what_it_cannot_serve_in_one_line(capsys, flags, said):
    code, out, err = run_cli(capsys, "serve", "--backend", "sim", "--port", "0", *flags)
    assert code == 2
    assert said in err and len(err.strip().splitlines()) == 1
    assert out == ""


def test_serve_refuses_a_token_file_it_cannot_write(capsys, tmp_path):
    code, _, err = run_cli(capsys, "serve", "--backend", "sim", "--token-file", tmp_path / "no" / "token")
    assert code == 2
    assert "--token-file" in err and "cannot be written" in err
