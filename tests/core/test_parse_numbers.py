"""Sizes and counts as users type them: exact, ASCII digits only, never an overflow."""

import pytest

from overlapviz.core.config import MAX_SIZE_BYTES, ConfigError, PipelineConfig, parse_count, parse_size


@pytest.mark.parametrize(
    ("text", "expected"),
    [("256MiB", 256 * 2**20), ("1GiB", 2**30), ("64k", 65536), ("1.5KiB", 1536), (" 3 MB ", 3_000_000)],
)
def test_sizes_parse_exactly(text, expected):
    assert parse_size(text) == expected


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("9" * 400, "far too large"),  # once an OverflowError
        ("1.0000000000000001GiB", "not a whole number of bytes"),  # once read as 1 GiB
        ("0.5b", "not a whole number of bytes"),
        ("٣٤KiB", "not a size"),  # Arabic-Indic digits
        ("１６MiB", "not a size"),  # full-width digits
        ("12 parsecs", "not a size"),
    ],
)
def test_bad_sizes_say_why(text, words):
    with pytest.raises(ConfigError, match=words) as error:
        parse_size(text)
    assert len(str(error.value)) < 120  # one readable line, however long the input


@pytest.mark.parametrize(("text", "expected"), [("16", 16), ("+3", 3), (" 7 ", 7), ("-1", -1), ("0004", 4)])
def test_counts_parse(text, expected):
    assert parse_count(text, "chunks") == expected


@pytest.mark.parametrize(
    ("text", "words"),
    [("１６", "not a whole number"), ("٣", "not a whole number"), ("1e3", "not a whole number"),
     ("9" * 40, "far too large"), ("", "not a whole number")],
)
def test_bad_counts_say_why(text, words):
    with pytest.raises(ConfigError, match=words):
        parse_count(text, "chunks")


def test_out_of_range_values_of_any_size_give_one_short_line():
    for changes in ({"size_bytes": 10**400}, {"chunks": 10**30}, {"size_bytes": MAX_SIZE_BYTES * 2**40}):
        with pytest.raises(ConfigError, match="out of range") as error:
            PipelineConfig(**changes)
        assert len(str(error.value)) < 120


def test_a_huge_size_in_a_preset_is_a_config_error_not_a_crash():
    with pytest.raises(ConfigError, match="far too large"):
        PipelineConfig.from_dict({"size_bytes": "9" * 400})
