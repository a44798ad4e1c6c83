"""Each client's share: jobs in flight and a rate with bursts; wrong credentials per address."""

import pytest

from overlapviz.lab.limits import ClientShares, FailedLogins, Limits, OverShare


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_a_client_may_burst_then_runs_at_its_rate_and_others_are_not_affected():
    clock = Clock()
    shares = ClientShares(Limits(max_queued=100, rate_per_s=2, burst=3), clock)
    for _ in range(3):
        shares.admit("a")
        shares.release("a")
    with pytest.raises(OverShare) as over:
        shares.admit("a")
    assert over.value.retry_after == "1"  # half a second, as whole seconds
    shares.admit("b")
    clock.now += 0.5
    shares.admit("a")


def test_a_client_with_its_jobs_in_flight_waits_for_one_to_finish():
    shares = ClientShares(Limits(max_queued=2, burst=100), Clock())
    shares.admit("a")
    shares.admit("a")
    with pytest.raises(OverShare, match="waiting"):
        shares.admit("a")
    assert shares.in_flight("a") == 2
    shares.release("a")
    shares.admit("a")


def test_clients_count_as_active_for_a_while_after_they_asked():
    clock = Clock()
    shares = ClientShares(Limits(), clock)
    shares.seen("a")
    clock.now += 200
    shares.admit("b")
    assert shares.active_clients() == 2
    clock.now += 200
    assert shares.active_clients() == 1


def test_an_address_with_too_many_wrong_credentials_waits_out_the_minute():
    clock = Clock()
    logins = FailedLogins(3, clock)
    for _ in range(3):
        logins.check("10.0.0.1")
        logins.failed("10.0.0.1")
    with pytest.raises(OverShare) as over:
        logins.check("10.0.0.1")
    assert over.value.retry_after == "60"
    logins.check("10.0.0.2")
    clock.now += 61
    logins.check("10.0.0.1")
