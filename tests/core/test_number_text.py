"""Counts with their noun in the right number; decimals that never read as a negative zero."""

import re
from pathlib import Path

import pytest

from overlapviz.core.config import KernelKind, PipelineConfig, StreamKind
from overlapviz.core.number_text import (
    count_text,
    counted,
    duration_text,
    fixed,
    plural,
    rate_text,
    series_text,
    significant,
)


@pytest.mark.parametrize(
    ("count", "noun", "text"),
    [(1, "chunk", "1 chunk"), (2, "chunk", "2 chunks"), (0, "chunk", "0 chunks"), (1, "H2D copy", "1 H2D copy"),
     (3, "H2D copy", "3 H2D copies"), (1, "copy engine", "1 copy engine"), (2, "API call", "2 API calls")],
)  # fmt: skip
def test_a_count_takes_its_noun_in_the_right_number(count, noun, text):
    assert count_text(count, noun) == text


def test_thousands_are_grouped_when_asked():
    assert count_text(1024, "API call", thousands=True) == "1,024 API calls"
    assert plural("kernel", 1) == "kernel" and plural("kernel", 5) == "kernels"


@pytest.mark.parametrize(("value", "decimals", "text"), [(-0.04, 1, "0.0"), (-0.4, 0, "0"), (-1e-12, 3, "0.000"),
                                                         (-0.06, 1, "-0.1"), (0.0, 2, "0.00"), (-2.5e-3, 3, "-0.003")])
def test_a_value_that_rounds_to_zero_has_no_minus_sign(value, decimals, text):
    assert fixed(value, decimals) == text


def test_the_pipeline_line_says_one_chunk_and_one_stream():
    one = PipelineConfig(size_bytes=1 << 20, chunks=1, streams=1)
    assert "1 stream x 1 chunk," in one.describe()
    assert "4 streams x 16 chunks," in PipelineConfig().describe()
    assert "legacy stream x 1 chunk," in one.replace(stream_kind=StreamKind.LEGACY).describe()


def test_no_kernel_work_reads_copies_only_not_a_kernel_of_no_iterations():
    assert PipelineConfig(iters=0).describe().endswith(", depth, copies only")
    assert not PipelineConfig(iters=0).has_kernel_work
    sincos = PipelineConfig(kernel=KernelKind.SINCOS, iters=0)
    assert sincos.has_kernel_work and sincos.describe().endswith("kernel sincos")


@pytest.mark.parametrize(
    ("count", "phrase", "text"),
    [(1, "memsets", "1 memset"), (1, "annotation ranges", "1 annotation range"),
     (1, "device-to-device copies", "1 device-to-device copy"),
     (1, "copies of an unknown kind", "1 copy of an unknown kind"),
     (2, "memsets", "2 memsets"), (1600, "annotation ranges", "1,600 annotation ranges")],
)  # fmt: skip
def test_a_count_before_a_plural_phrase_makes_it_singular_for_one(count, phrase, text):
    assert counted(count, phrase) == text


def test_figures_keep_three_significant_digits_at_every_size():
    assert [significant(v) for v in (7955.64, 35.84, 6.094, 0.07421, 0.000570)] == [
        "7955.6", "35.8", "6.09", "0.0742", "0.000570",
    ]  # fmt: skip
    assert significant(9.999) == "10.0" and significant(0.099999) == "0.100"  # rounding up keeps the rule
    assert significant(0) == "0" and significant(-0.0) == "0"


def test_a_time_reads_in_ms_and_a_very_short_one_in_us_or_ns():
    assert duration_text(7_955_600_000) == "7955.6 ms" and duration_text(742_000) == "0.742 ms"
    assert duration_text(100_000) == "0.100 ms"  # 0.1 ms and up stay in ms, the timeline's unit
    assert duration_text(99_996) == "0.100 ms"  # rounds up to 0.1 ms: the rule of ms
    assert duration_text(74_200) == "74.2 \u00b5s" and duration_text(9_999) == "10.0 \u00b5s"
    assert duration_text(570) == "570 ns" and duration_text(0) == "0 ms" and duration_text(-0.4) == "0 ms"
    assert duration_text(-742_000) == "-0.742 ms" and duration_text(5_700) == "5.70 \u00b5s"


def test_a_rate_has_the_same_digits():
    assert rate_text(55.44) == "55.4 GB/s" and rate_text(7.031) == "7.03 GB/s" and rate_text(126.3) == "126.3 GB/s"


PACKAGE = Path(__file__).resolve().parents[2] / "overlapviz"
# A format of its own right before a unit: "{x:.1f} GB/s", "{fixed(x, 3)} ms".
OWN_FORMAT = re.compile(r"(:\.\d+[fg]\}|fixed\([^()]*(\([^()]*\))?[^()]*\)\})\s*(ms|\u00b5s|ns|GB/s)\b")
POSITIONS = {"core/analysis/time_window.py"}  # a time window's ends, places on the axis: `Window.describe`


def test_every_time_and_rate_goes_through_the_one_rule():
    own = [
        f"{path.relative_to(PACKAGE)}:{number}"
        for path in PACKAGE.rglob("*.py")
        if str(path.relative_to(PACKAGE)) not in POSITIONS
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OWN_FORMAT.search(line)
    ]
    assert own == []


@pytest.mark.parametrize(
    ("items", "text"),
    [([], ""), (["kernels"], "kernels"), (["kernels", "memsets"], "kernels and memsets"),
     (["H2D copies", "kernels", "memsets"], "H2D copies, kernels and memsets")],
)  # fmt: skip
def test_a_series_reads_as_a_sentence_lists_it(items, text):
    assert series_text(items) == text
