import pytest

from overlapviz.backends.cupy.ram_guard import (
    PINNED_SHARE_ENV,
    PinRefused,
    check_pin_request,
    parse_meminfo,
    pin_share,
)
from overlapviz.core.run_errors import BackendError

GIB = 1 << 30


def test_request_within_the_share_passes():
    check_pin_request(4 * GIB, held=0, available=16 * GIB, share=0.5)


def test_request_over_the_share_is_refused_with_the_reason():
    with pytest.raises(PinRefused) as caught:
        check_pin_request(9 * GIB, held=0, available=16 * GIB, share=0.5)
    message = str(caught.value)
    assert "refusing to pin 9 GiB" in message
    assert "50% of the 16 GiB" in message
    assert "cannot be swapped" in message
    assert PINNED_SHARE_ENV in message


def test_memory_already_pinned_counts_against_the_limit():
    # 6 GiB held (no longer available) + 6 GiB available: at most 6 GiB of the 12 may be pinned
    check_pin_request(0, held=6 * GIB, available=6 * GIB, share=0.5)
    with pytest.raises(PinRefused, match="refusing to pin 7 GiB"):
        check_pin_request(1 * GIB, held=6 * GIB, available=6 * GIB, share=0.5)


def test_exactly_at_the_limit_passes():
    check_pin_request(8 * GIB, held=0, available=16 * GIB, share=0.5)


def test_unknown_ram_refuses_nothing():
    check_pin_request(1 << 50, held=0, available=None, share=0.5)


def test_share_from_argument_environment_or_default(monkeypatch):
    monkeypatch.delenv(PINNED_SHARE_ENV, raising=False)
    assert pin_share() == 0.5
    assert pin_share(0.25) == 0.25
    monkeypatch.setenv(PINNED_SHARE_ENV, "0.8")
    assert pin_share() == 0.8


@pytest.mark.parametrize("bad", [0.0, -0.1, 1.5])
def test_share_out_of_range_is_an_error(bad):
    with pytest.raises(BackendError, match="share must be above 0 and at most 1"):
        pin_share(bad)


def test_share_that_is_no_number_is_named(monkeypatch):
    monkeypatch.setenv(PINNED_SHARE_ENV, "half")
    with pytest.raises(BackendError, match="OVERLAPVIZ_PINNED_SHARE='half' is not a number"):
        pin_share()


def test_meminfo_available_in_bytes():
    text = "MemTotal:       131072000 kB\nMemFree:        1000 kB\nMemAvailable:   129000000 kB\n"
    assert parse_meminfo(text) == 129000000 * 1024
    assert parse_meminfo("MemTotal: 5 kB\n") is None
