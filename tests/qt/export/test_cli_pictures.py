"""`overlapviz run --png` and `overlapviz render`: the app's pictures from the command line."""

from pathlib import Path

import pytest
from export_probes import picture_layout, rasterise_svg, wrong_pixels
from PySide6.QtGui import QImage
from qt_traces import two_chunk_trace

from overlapviz._qt.export.comparison_view import ComparisonPicture
from overlapviz._qt.export.export_view import ExportOptions
from overlapviz.commands.main import main
from overlapviz.core.files.trace_export import export_chrome
from overlapviz.importers.read import read_trace_file
from overlapviz.presets import get_preset
from overlapviz.view.opening import opening_ms
from overlapviz.view.palette import KIND_COLOURS, SpanStyle
from overlapviz.view.prepared import prepare_trace

KINDS = {KIND_COLOURS[style].upper() for style in (SpanStyle.H2D, SpanStyle.KERNEL, SpanStyle.D2H, SpanStyle.API)}


def _run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _picture(path):
    return QImage(str(path)).convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)


def test_run_png_draws_the_single_pipeline(capsys, tmp_path):
    path, trace = tmp_path / "one.png", tmp_path / "one.json"
    code, out, err = _run(capsys, "run", "--backend", "sim", "--chunks", "8", "--png", str(path), "--width", "1600",
                          "--trace", str(trace))  # fmt: skip
    assert code == 0 and err == ""
    assert f"wrote      {path}" in out
    image = _picture(path)
    assert image.width() == 1600
    layout = picture_layout(prepare_trace(read_trace_file(trace)), ExportOptions(width=1600))
    assert layout.colours() >= KINDS and len(layout.probes) > 8 * 3  # each chunk's copies and kernel, at least
    assert wrong_pixels(image, layout) == []  # the spans of the run it wrote, where its axis puts them


def test_a_comparison_preset_draws_one_picture_of_both(capsys, tmp_path):
    single, both = tmp_path / "one.png", tmp_path / "both.png"
    assert _run(capsys, "run", "--backend", "sim", "--png", str(single))[0] == 0
    code, _out, _err = _run(capsys, "run", "--preset", "overlap-pinned-vs-pageable", "--backend", "sim",
                            "--png", str(both), "--theme", "dark", "--trace", str(tmp_path / "both.json"))  # fmt: skip
    assert code == 0
    image = _picture(both)
    assert image.width() == 1920 and image.height() > QImage(str(single)).height() * 1.3
    assert image.pixelColor(2, 2).name().upper() == "#1E1F22"  # the dark theme
    preset = get_preset("overlap-pinned-vs-pageable")
    views = tuple(prepare_trace(read_trace_file(tmp_path / f"both-{side}.json")) for side in "ab")
    picture = ComparisonPicture(views, tuple(preset.labels), f"{preset.lesson}. {preset.title}")
    layout = picture_layout(picture, ExportOptions(theme="dark"), times_ms=(0.0, 10.0))
    assert {probe.side for probe in layout.probes} == {0, 1} and layout.colours() >= KINDS
    assert layout.time_x[0, 10.0] == layout.time_x[1, 10.0]  # one time axis
    assert wrong_pixels(image, layout) == []


def test_render_draws_a_trace_file_as_png_or_svg(capsys, tmp_path):
    trace = tmp_path / "run.json"
    export_chrome(two_chunk_trace(), trace)
    code, out, err = _run(capsys, "render", str(trace), "-o", str(tmp_path / "r.png"), "--theme", "projector",
                          "--width", "3840")  # fmt: skip
    assert code == 0 and err == "" and "r.png" in out
    image = _picture(tmp_path / "r.png")
    assert image.width() == 3840
    view = prepare_trace(read_trace_file(trace))
    layout = picture_layout(view, ExportOptions(width=3840, theme="projector"))
    assert layout.colours() >= KINDS and wrong_pixels(image, layout) == []
    assert _run(capsys, "render", str(trace), "-o", str(tmp_path / "r.svg"))[0] == 0
    svg = (tmp_path / "r.svg").read_bytes()
    assert b"<svg" in svg
    layout = picture_layout(view, ExportOptions())
    assert wrong_pixels(rasterise_svg(svg, layout.size), layout) == []


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["render", "{tmp}/missing.json", "-o", "{tmp}/x.png"], "cannot read {tmp}/missing.json: No such file"),
        (["render", "{tmp}/bad.json", "-o", "{tmp}/x.png"], "bad.json"),
        (["render", "{tmp}/run.json", "-o", "{tmp}/x.png", "--width", "10"], "width 10 px is out of range"),
        (["render", "{tmp}/run.json", "-o", "{tmp}/x.png", "--theme", "neon"], "unknown theme 'neon'"),
        (["render", "{tmp}/run.json", "-o", "{tmp}/nowhere/x.png"], "does not exist"),
        (["run", "--backend", "sim", "--png", "{tmp}/x.png", "--theme", "neon"], "unknown theme 'neon'"),
        (["render", "{tmp}/run.json"], "required: -o/--output"),
        (["render", "{tmp}/run.json", "-o", "{tmp}/x.jpg"], "-o {tmp}/x.jpg: a picture is written as .png or .svg, not .jpg"),  # noqa: E501
        (["render", "{tmp}/run.json", "-o", "{tmp}/x"], "a picture is written as .png or .svg, not a name without one"),
        (["run", "--backend", "sim", "--png", "{tmp}/x.jpeg"], "--png {tmp}/x.jpeg: a picture is written as .png or"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, args, words):
    export_chrome(two_chunk_trace(), tmp_path / "run.json")
    (tmp_path / "bad.json").write_text('{"hello": 1}')
    code, out, err = _run(capsys, *(a.format(tmp=tmp_path) for a in args))
    assert code == 2 and out == ""
    assert err.startswith("overlapviz: error: ") and err.count("\n") == 1
    assert words.format(tmp=tmp_path) in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json", "run.json"]  # nothing written


def test_a_refused_run_draws_nothing(capsys, tmp_path):
    code, _out, err = _run(capsys, "run", "--preset", "pin-too-much", "--png", str(tmp_path / "p.png"))
    assert code == 1 and "refusing to pin" in err
    assert not (tmp_path / "p.png").exists()


NSYS = Path(__file__).parents[2] / "data" / "nsys" / "test-cuda-2026.1-pinned-streams.sqlite.gz"


def test_render_draws_another_tools_trace_over_its_gpu_work(capsys, tmp_path):
    path = tmp_path / "nsys.png"
    assert _run(capsys, "render", str(NSYS), "-o", str(path))[0] == 0
    trace = read_trace_file(NSYS)
    start, end = opening_ms(trace)  # 851.2 to 958.5 ms of a 1100.7 ms recording
    image = _picture(path)
    layout = picture_layout(prepare_trace(trace), ExportOptions(window_ms=(start, end)), times_ms=(start, end, 0.0))
    assert wrong_pixels(image, layout) == [] and len(layout.probes) > 20  # every copy, where that axis puts it
    first, last = layout.time_x[0, start], layout.time_x[0, end]
    assert last - first > 0.75 * image.width()  # the GPU work fills the picture, no sliver
    assert layout.time_x[0, 0.0] < 0  # the recording's start is off the picture


def test_render_draws_a_run_of_overlapviz_whole(capsys, tmp_path):
    trace_path, path = tmp_path / "per-run.json", tmp_path / "per-run.png"
    assert _run(capsys, "run", "--backend", "sim", "--host-alloc", "per-run", "--trace", str(trace_path))[0] == 0
    assert _run(capsys, "render", str(trace_path), "-o", str(path))[0] == 0
    trace = read_trace_file(trace_path)
    end = float(trace["end_ns"].max()) / 1e6
    layout = picture_layout(prepare_trace(trace), ExportOptions(), times_ms=(0.0, end))
    image = _picture(path)
    assert wrong_pixels(image, layout) == []
    assert 0 < layout.time_x[0, 0.0] < layout.time_x[0, end] < image.width()  # its allocations before the copies too
