"""The columnar file on the command line: `run --trace FILE.ovz` writes it, `analyze` and `render` read it."""

import numpy as np

from overlapviz.core.files.trace_import import import_chrome
from overlapviz.core.trace.columns import COLUMNS
from overlapviz.importers.read import read_trace_file
from tests.cli_runs import run_cli


def test_run_writes_columns_that_analyse_and_draw_as_the_json_trace_does(capsys, tmp_path):
    ovz, json_path = tmp_path / "t.ovz", tmp_path / "t.json"
    for path in (ovz, json_path):
        code, out, err = run_cli(capsys, "run", "--backend", "sim", "--chunks", "8", "--trace", path)
        assert (code, err) == (0, "") and f"wrote      {path}" in out
    assert ovz.read_bytes().startswith(b"PK\x03\x04")
    loaded, as_json = read_trace_file(ovz), import_chrome(json_path)
    assert all(np.array_equal(loaded[c], as_json[c]) for c in COLUMNS)
    assert (loaded.names, loaded.meta) == (as_json.names, as_json.meta)
    analysed = [run_cli(capsys, "analyze", path, "--json") for path in (ovz, json_path)]
    assert analysed[0][0] == 0 and analysed[0][1].replace(str(ovz), "T") == analysed[1][1].replace(str(json_path), "T")
    code, _, err = run_cli(capsys, "render", ovz, "-o", tmp_path / "t.png")
    assert (code, err) == (0, "") and (tmp_path / "t.png").stat().st_size > 0


def test_a_damaged_columnar_file_is_one_line_and_exit_code_2(capsys, tmp_path):
    path = tmp_path / "t.ovz"
    run_cli(capsys, "run", "--backend", "sim", "--trace", path)
    path.write_bytes(path.read_bytes()[:-100])
    code, out, err = run_cli(capsys, "analyze", path)
    assert (code, out) == (2, "") and err.startswith(f"overlapviz: error: {path}: a damaged zip file")
    assert err.count("\n") == 1


def test_a_columnar_name_is_a_file_for_the_app_even_before_it_exists(tmp_path):
    """``overlapviz big.ovz``, as a launcher gives it, starts the app on that file, not a command."""
    from overlapviz.commands.app import file_to_open

    assert file_to_open([str(tmp_path / "big.ovz")]) == tmp_path / "big.ovz"
    assert file_to_open([str(tmp_path / "notes.txt")]) is None
