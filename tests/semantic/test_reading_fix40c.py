"""Outside tryout 39 and its re-check: readings and messages of the no-model agent on drafted
and imported layers that were asked back or abstained on for reasons about another question.
"""

from __future__ import annotations

from tests.semantic._helpers import read_and_decide
from tests.semantic.test_reading_tryout39_event import TPCH


def test_a_ranking_by_year_of_the_event_the_time_column_names_is_read() -> None:
    """N5: "Which year had the fewest line items shipped?" was asked back on 'shipped' (no
    period said, only a ranking by year), while "line items shipped in 1997" is answered: the
    verb says the ship date the metric is dated by, so it is read by year of that date."""
    reading, decision = read_and_decide("Which year had the fewest line items shipped?", TPCH)
    assert reading.metrics == ("lineitem_count",) and reading.grain == "year", reading
    assert not reading.unread and not reading.explained, reading
    assert decision.behaviour == "answer", decision


def test_a_ranking_by_year_of_another_event_stays_asked_back() -> None:
    _, decision = read_and_decide("Which year had the most line items received?", TPCH)
    assert decision.behaviour == "clarify", decision
