"""A request's ``Deadline``: the work that claims it before its ledger write and the app that
expires it at the limit settle the request once, whichever comes first."""

from __future__ import annotations

import time

import pytest

from assay.service._deadline import Deadline
from assay.service._errors import ApiError


def test_a_claimed_request_is_not_expired_and_its_client_waits_for_its_verdict() -> None:
    deadline = Deadline(60.0)
    deadline.claim()
    assert deadline.expire() is False
    assert deadline.state == "claimed"


def test_an_expired_request_cannot_be_claimed_nor_worked_on() -> None:
    deadline = Deadline(60.0)
    assert deadline.expire() is True
    for refused in (deadline.claim, deadline.check):
        with pytest.raises(ApiError) as raised:
            refused()
        assert raised.value.code == "request.timeout" and "60 s" in raised.value.message


def test_a_request_past_its_limit_is_expired_by_its_claim() -> None:
    """The work found past the limit before the app's timer fired: the claim refuses and
    settles the request as expired, so the app tells its client 504."""
    deadline = Deadline(1.0, started=time.monotonic() - 2.0)
    assert deadline.left_s() == 0.0
    with pytest.raises(ApiError):
        deadline.claim()
    assert deadline.expire() is True


def test_the_time_left_counts_from_the_request_s_start() -> None:
    deadline = Deadline(10.0, started=time.monotonic() - 4.0)
    assert 5.9 < deadline.left_s() <= 6.0
    deadline.check()  # within the limit: goes on
