"""A trace of a thousand GPUs: the first few drawn, the rest summed up in one line, in a picture of the size asked.

The file is a real Nsight Systems export (tests/data/nsys, one GPU, twelve copies) whose copy
table is copied onto GPUs 1 to 999, row for row: the format and the reading path are the real
ones, only the number of GPUs is made up, for scale.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from overlapviz.commands.main import main
from overlapviz.core.analysis import trace_facts
from overlapviz.importers.read import read_trace_file
from overlapviz.view.gpus_drawn import DRAWN_GPUS
from overlapviz.view.layout import layout_lanes
from overlapviz.view.prepared import prepare_trace
from tests.importers.nsys_files import STREAMS, database_of

GPUS = 1000


def export_of_gpus(gpus: int, folder: Path) -> Path:
    """The real export with its copies repeated on GPUs 1 to `gpus` - 1, written to `folder`."""
    database = database_of(STREAMS)
    columns = [row[1] for row in database.execute("PRAGMA table_info(CUPTI_ACTIVITY_KIND_MEMCPY)")]
    rows = database.execute("SELECT * FROM CUPTI_ACTIVITY_KIND_MEMCPY").fetchall()
    device = columns.index("deviceId")
    copies = [(*row[:device], gpu, *row[device + 1 :]) for gpu in range(1, gpus) for row in rows]
    database.executemany(f"INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES ({', '.join('?' * len(columns))})", copies)
    database.commit()
    path = folder / f"{gpus}-gpus.sqlite"
    path.write_bytes(database.serialize())
    return path


@pytest.fixture(scope="module")
def thousand_gpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return export_of_gpus(GPUS, tmp_path_factory.mktemp("gpus"))


def test_only_the_first_gpus_get_lanes_and_one_line_names_the_rest(thousand_gpus):
    view = prepare_trace(read_trace_file(thousand_gpus))
    assert {lane.lane.device for lane in view.lanes} - {None} == set(range(DRAWN_GPUS))
    assert view.gpus_not_drawn == tuple(range(DRAWN_GPUS, GPUS))
    bands = layout_lanes(view.lanes, gpus_not_drawn=view.gpus_not_drawn).devices
    assert [band.title for band in bands[:-1]] == [f"GPU {gpu}" for gpu in range(DRAWN_GPUS)]
    assert bands[-1].title == f"{GPUS - DRAWN_GPUS} more GPUs ({DRAWN_GPUS} to {GPUS - 1}), not drawn"


def test_the_picture_is_as_wide_as_asked_and_its_caption_counts_the_gpus_unnamed(thousand_gpus, tmp_path, capsys):
    png = tmp_path / "gpus.png"
    assert main(["render", str(thousand_gpus), "-o", str(png), "--width", "1200"]) == 0
    image = QImage(str(png))
    assert image.width() == 1200 and image.height() <= 1200  # as before: the caption one line, the lanes a few
    assert main(["analyze", str(thousand_gpus)]) == 0
    recorded = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("recorded"))
    assert recorded.endswith("NVIDIA GeForce RTX 4060 Ti + GPU 1 + GPU 2 + GPU 3 and 996 more GPUs")


def test_a_trace_of_as_many_gpus_as_are_drawn_draws_each_and_no_summary_line(tmp_path):
    view = prepare_trace(read_trace_file(export_of_gpus(DRAWN_GPUS, tmp_path)))
    assert view.gpus_not_drawn == ()
    bands = layout_lanes(view.lanes, gpus_not_drawn=view.gpus_not_drawn).devices
    assert [band.title for band in bands] == [f"GPU {gpu}" for gpu in range(DRAWN_GPUS)]


def test_the_waits_of_every_gpu_are_swept_once_however_many_callouts_ask(thousand_gpus, monkeypatch):
    sweeps = []
    real = trace_facts.covered_ns
    monkeypatch.setattr(trace_facts, "covered_ns", lambda *args: sweeps.append(1) or real(*args))
    trace = read_trace_file(thousand_gpus)
    prepare_trace(trace)
    assert len(sweeps) < 10 * GPUS  # a few per GPU's unit; asked again per finding, it was GPUs squared
    assert trace_facts.copy_engine_waits(trace) is trace_facts.copy_engine_waits(trace)
    assert trace_facts.idle_unit_waits(trace) is trace_facts.idle_unit_waits(trace)
