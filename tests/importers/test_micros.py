"""Microsecond texts to exact nanoseconds: every digit kept, ranges and junk refused."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from overlapviz.importers.micros import MAX_NS, MicrosTextError, micros_text_to_ns, profiler_micros_ns


def test_epoch_microseconds_keep_their_nanoseconds():
    # float64 holds 1764578400123456.789 only to a quarter of a microsecond
    assert int(float("1764578400123456.789") * 1000) != 1764578400123456789
    assert micros_text_to_ns([b"1764578400123456.789"]).tolist() == [1764578400123456789]


@pytest.mark.parametrize(
    ("text", "ns"),
    [
        (b"5259022113484.411", 5259022113484411),
        (b"0.832", 832),
        (b"7", 7000),
        (b"0", 0),
        (b"-1.5", -1500),
        (b"1.0005", 1001),  # halves away from zero
        (b"-1.0005", -1001),
        (b"1.00049", 1000),
        (b"117.70599999999999", 117706),  # a float's repr, as a rewritten file may hold
        (b"2.5e3", 2500000),
        (b"25E-1", 2500),
        (b"1e-9", 0),
        (b"0.1000000000000000055511151231257827021181583404541015625", 100),  # over 40 characters
        (b"3999999999999999.999", MAX_NS - 1),
    ],
)
def test_texts_read_to_the_nanosecond(text, ns):
    assert micros_text_to_ns([text]).tolist() == [ns]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (b"", "not a number"),
        (b'"5"', "not a number"),
        (b"[]", "not a number"),
        (b"null", "not a number"),
        (b"1.", "not a number"),
        (b"-", "not a number"),
        (b".5", "not a number"),
        (b"1.2.3", "not a number"),
        (b"1-2", "not a number"),
        (b"1_000", "not a number"),
        (b"1\x005", "not a number"),
        (b"1e", "not a number"),
        (b"4000000000000000", "out of range"),
        (b"-4000000000000000", "out of range"),
        (b"99999999999999999999", "out of range"),
        (b"1e300", "out of range"),
        (b"1e999999999", "out of range"),
    ],
)
def test_junk_and_out_of_range_texts_are_refused(text, why):
    with pytest.raises(MicrosTextError, match=why) as caught:
        micros_text_to_ns([b"1.5", text, b"2"])
    assert caught.value.index == 1


def test_the_first_bad_text_is_the_one_named():
    with pytest.raises(MicrosTextError) as caught:
        micros_text_to_ns([b"1", b"1e999", b"x", b"5"])
    assert caught.value.index == 1
    with pytest.raises(MicrosTextError) as caught:
        micros_text_to_ns([b"1", b"99999999999999999", b"2e99"])
    assert (caught.value.index, str(caught.value)) == (1, "out of range")


def test_no_texts_give_no_values():
    result = micros_text_to_ns([])
    assert result.dtype == np.int64 and len(result) == 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-(MAX_NS - 1), MAX_NS - 1), min_size=1, max_size=50))
def test_three_decimal_texts_come_back_exactly(values):
    texts = [f"{'-' if ns < 0 else ''}{abs(ns) // 1000}.{abs(ns) % 1000:03d}".encode() for ns in values]
    assert micros_text_to_ns(texts).tolist() == values


def joined(texts):
    return profiler_micros_ns(b"\n".join(texts), len(texts))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, MAX_NS - 1), max_size=50))
def test_texts_as_profilers_write_them_are_read_from_one_buffer(values):
    texts = [f"{ns // 1000}.{ns % 1000:03d}".encode() for ns in values]
    assert joined(texts).tolist() == values


@pytest.mark.parametrize(
    "texts",
    [[b"1.5"], [b"7"], [b"-1.000"], [b"2.5e3"], [b"1.000", b""], [b"1.000\n2.000", b"3.000"], [b"1.000", b"x.000"],
     [b".123"], [b"1.0000"], [b"4000000000000000.000"], [b"99999999999999999.000"], [b"1.000", b'"2.000"']],
)
def test_texts_of_other_forms_are_left_to_the_general_reader(texts):
    assert joined(texts) is None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.from_regex(rb"\A[0-9]{1,17}\.[0-9]{3}\Z"), st.binary(max_size=8)), min_size=1, max_size=8))
def test_one_buffer_agrees_with_the_general_reader_or_declines(texts):
    fast = joined(texts)
    try:
        general = micros_text_to_ns(texts).tolist()
    except MicrosTextError:
        assert fast is None
    else:
        assert fast is None or fast.tolist() == general
