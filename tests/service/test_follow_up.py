"""Follow-ups inherit every part of the previous reading they do not restate.

An outside tester (tryout 10, #129-131) saw the service SHOW wrong answers at score 1.00: a
follow-up that named a whole metric ("gross revenue", "and units sold?", "what about number of
orders") was answered as a fresh question over all dates with no grouping, and a reply to an
ask-back that named the choice in full ("gross revenue", "net sales") dropped the period and
grouping of the question it answered. Every expected number below was computed with our own
SQL on the demo warehouse (order_lines JOIN orders JOIN customers, ``orders.status <>
'cancelled'``; gross = SUM(quantity * unit_price), net = gross - SUM(discount), units =
SUM(quantity), orders = COUNT(DISTINCT order_id)); the clock is 2024-11-15, so "last month" is
October 2024.
"""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from assay.semantic import compose_follow_up, read
from assay.service import Service

# SELECT c.country, SUM(l.quantity*l.unit_price) ... 2023 GROUP BY 1
GROSS_2023_BY_COUNTRY = {
    "BR": 75463.02,
    "DE": 380542.83,
    "FR": 250507.34,
    "GB": 241764.33,
    "JP": 143079.31,
    "US": 439531.86,
}
NET_2023_BY_COUNTRY = {
    "BR": 70189.15,
    "DE": 353556.25,
    "FR": 233508.63,
    "GB": 224224.54,
    "JP": 133404.58,
    "US": 409019.72,
}
NET_OCT_2024_BY_CHANNEL = {"A": 39615.67, "S": 20749.40, "W": 72050.76}
GROSS_OCT_2024_BY_CHANNEL = {"A": 42596.51, "S": 22307.87, "W": 77010.52}
UNITS_Q2_2024_BY_CHANNEL = {"A": 3865, "S": 1757, "W": 6556}
GROSS_Q2_2024_BY_CHANNEL = {"A": 123065.43, "S": 58282.45, "W": 204418.80}
ORDERS_Q2_2024_BY_CHANNEL = {"A": 529, "S": 253, "W": 931}
NET_2023_BY_CHANNEL = {"A": 420181.46, "S": 208657.02, "W": 795064.39}
NET_Q2_2024_BY_COUNTRY = {
    "BR": 18681.84,
    "DE": 82138.54,
    "FR": 56770.26,
    "GB": 55850.23,
    "JP": 35189.62,
    "US": 110284.13,
}
GROSS_2023_BY_CATEGORY = {
    "books": 432981.45,
    "garden": 259240.74,
    "kitchen": 270807.78,
    "sports": 275611.67,
    "toys": 292247.05,
}
ALL_DATES_GROSS = 4242033.76  # what the tester was shown for "gross revenue": all dates


def _ask(client: TestClient, question: str, of: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"question": question}
    if of is not None:
        body["follow_up_of"] = of
    response = client.post("/api/ask", json=body)
    assert response.status_code == 200, response.text
    return dict(response.json())


def _first(client: TestClient, question: str, badge: str) -> str:
    body = _ask(client, question)
    assert body["badge"] == badge, body
    return str(body["verdict"]["id"])


def _by_group(body: dict[str, Any]) -> dict[str, float]:
    """The shown rows as {group: value}, rounded to cents."""
    assert body["badge"] == "show", (body["badge"], body["verdict"]["reasons"], body["reading"])
    rows = body["answer"]["result"]["rows"]
    return {str(row[0]): round(float(row[-1]), 2) for row in rows}


def _value(body: dict[str, Any]) -> float:
    assert body["badge"] == "show", (body["badge"], body["verdict"]["reasons"], body["reading"])
    rows = body["answer"]["result"]["rows"]
    assert len(rows) == 1, rows
    return round(float(rows[0][-1]), 2)


# --- the tester's cases, through the app ---------------------------------------------------


@pytest.mark.parametrize("reply", ["gross revenue", "gross", "gross sales", "the gross one please"])
def test_a_reply_to_an_ask_back_is_the_choice_in_the_original_question(
    client: TestClient, reply: str
) -> None:
    """tryout 10 #129 (and #128 for "the ... one please")."""
    ident = _first(client, "revenue in 2023 by country", "ask back")
    body = _ask(client, reply, ident)
    got = _by_group(body)
    assert got == GROSS_2023_BY_COUNTRY
    assert ALL_DATES_GROSS not in got.values()
    follow = body["follow_up"]
    assert follow["inherited"] == ["period 2023", "grouping country"]
    assert follow["replaced"] == ["metric revenue (asked back) -> gross revenue"]
    assert "kept from the previous question: period 2023; grouping country" in body["reading"]


@pytest.mark.parametrize("reply", ["net revenue", "net sales", "net", "what about net sales?"])
def test_a_reply_to_sales_last_month_keeps_its_period_and_grouping(
    client: TestClient, reply: str
) -> None:
    """tryout 10 #130: "net revenue" and "net sales" were shown over all dates (3,941,899.15)."""
    ident = _first(client, "sales by channel last month", "ask back")
    body = _ask(client, reply, ident)
    assert _by_group(body) == NET_OCT_2024_BY_CHANNEL
    assert body["follow_up"]["inherited"] == ["period October 2024", "grouping channel"]


@pytest.mark.parametrize(
    ("fragment", "expected", "metric"),
    [
        ("and units sold?", UNITS_Q2_2024_BY_CHANNEL, "units sold"),
        ("gross revenue", GROSS_Q2_2024_BY_CHANNEL, "gross revenue"),
        ("what about number of orders", ORDERS_Q2_2024_BY_CHANNEL, "number of orders"),
        ("what about gross?", GROSS_Q2_2024_BY_CHANNEL, "gross revenue"),
        ("units sold instead", UNITS_Q2_2024_BY_CHANNEL, "units sold"),
        ("same for number of orders", ORDERS_Q2_2024_BY_CHANNEL, "number of orders"),
        ("How about the items sold?", UNITS_Q2_2024_BY_CHANNEL, "units sold"),
    ],
)
def test_a_follow_up_naming_a_new_metric_keeps_period_and_grouping(
    client: TestClient, fragment: str, expected: dict[str, float], metric: str
) -> None:
    """tryout 10 #131: each of these was shown over all dates with no grouping at 1.00."""
    ident = _first(client, "net revenue by channel in Q2 2024", "show")
    body = _ask(client, fragment, ident)
    assert _by_group(body) == expected
    follow = body["follow_up"]
    assert follow["inherited"] == ["period Q2 2024", "grouping channel"]
    assert follow["replaced"] == [f"metric net revenue -> {metric}"]
    assert body["verdict"]["provenance"]["period"] == "Q2 2024"
    assert body["verdict"]["provenance"]["group_by"] == "channel"
    assert "kept from the previous question: period Q2 2024; grouping channel" in body["reading"]


# --- variants: periods, groupings, filters, ranking, grain ----------------------------------


@pytest.mark.parametrize(
    "fragment", ["in 2023?", "and in 2023?", "same for 2023", "what about 2023"]
)
def test_a_new_period_keeps_metric_and_grouping(client: TestClient, fragment: str) -> None:
    ident = _first(client, "net revenue by channel in Q2 2024", "show")
    body = _ask(client, fragment, ident)
    assert _by_group(body) == NET_2023_BY_CHANNEL
    assert body["follow_up"]["inherited"] == ["metric net revenue", "grouping channel"]
    assert body["follow_up"]["replaced"] == ["period Q2 2024 -> 2023"]


@pytest.mark.parametrize("fragment", ["now by country", "by country instead", "and per country?"])
def test_a_new_grouping_keeps_metric_and_period(client: TestClient, fragment: str) -> None:
    ident = _first(client, "net revenue by channel in Q2 2024", "show")
    body = _ask(client, fragment, ident)
    assert _by_group(body) == NET_Q2_2024_BY_COUNTRY
    assert body["follow_up"]["inherited"] == ["metric net revenue", "period Q2 2024"]
    assert body["follow_up"]["replaced"] == ["grouping channel -> country"]


def test_a_filter_is_inherited_by_a_new_metric(client: TestClient) -> None:
    # SELECT SUM(l.quantity) ... 2023 AND c.country = 'DE' -> 11,704
    ident = _first(client, "number of orders in Germany in 2023", "show")
    body = _ask(client, "and units sold?", ident)
    assert _value(body) == 11704
    assert body["follow_up"]["inherited"] == ["period 2023", "filter country = DE"]


def test_a_new_value_replaces_the_filter_on_its_dimension(client: TestClient) -> None:
    # SELECT SUM(l.quantity*l.unit_price) ... October 2024 AND c.country = 'DE' -> 33,172.45
    # (France, the previous question's value: 23,160.47)
    ident = _first(client, "gross revenue for France last month", "show")
    body = _ask(client, "same for Germany", ident)
    assert _value(body) == 33172.45
    assert body["follow_up"]["replaced"] == ["filter country = FR -> country = DE"]
    assert body["follow_up"]["inherited"] == ["metric gross revenue", "period October 2024"]


def test_a_ranking_is_inherited_by_a_new_metric(client: TestClient) -> None:
    # SELECT c.country, SUM(l.quantity) ... 2023 GROUP BY 1 ORDER BY 2 DESC LIMIT 3
    ident = _first(client, "top 3 countries by net revenue in 2023", "show")
    body = _ask(client, "what about units sold", ident)
    rows = body["answer"]["result"]["rows"]
    assert [(str(r[0]), int(r[-1])) for r in rows] == [("US", 13608), ("DE", 11704), ("FR", 7485)]
    assert "ranking top 3" in body["follow_up"]["inherited"]
    assert "grouping country" in body["follow_up"]["inherited"]


def test_a_time_grain_is_inherited_by_a_new_metric(client: TestClient) -> None:
    # SELECT date_trunc('month', order_date), COUNT(DISTINCT order_id) ... 2023 GROUP BY 1
    ident = _first(client, "net revenue by month in 2023", "show")
    body = _ask(client, "and number of orders?", ident)
    assert body["badge"] == "show"
    values = [int(r[-1]) for r in body["answer"]["result"]["rows"]]
    assert values == [439, 406, 489, 494, 502, 540, 530, 509, 530, 504, 844, 864]
    assert body["follow_up"]["inherited"] == ["period 2023", "grain month"]


def test_a_new_metric_and_period_keep_the_grouping_and_say_so(client: TestClient) -> None:
    """The documented choice: a follow-up inherits every part it does not restate, even when it
    restates both the metric and the period; the reading line says what was kept."""
    ident = _first(client, "units sold by category in 2024", "show")
    body = _ask(client, "gross sales in 2023", ident)
    assert _by_group(body) == GROSS_2023_BY_CATEGORY
    assert body["follow_up"]["inherited"] == ["grouping category"]
    assert set(body["follow_up"]["replaced"]) == {
        "metric units sold -> gross revenue",
        "period 2024 -> 2023",
    }
    assert "kept from the previous question: grouping category" in body["reading"]


def test_an_ask_back_choice_then_a_further_follow_up(client: TestClient) -> None:
    """A chain: ask-back -> "net" -> "and in Q2 2024 by channel"; each keeps the rest."""
    ident = _first(client, "revenue in 2023 by country", "ask back")
    chosen = _ask(client, "net", ident)
    assert _by_group(chosen) == NET_2023_BY_COUNTRY
    later = _ask(client, "and by channel in Q2 2024?", chosen["verdict"]["id"])
    assert _by_group(later) == {
        "A": 114160.13,
        "S": 54864.51,
        "W": 189889.98,
    }  # SELECT o.channel_code, SUM(quantity*unit_price - discount) ... Q2 2024 GROUP BY 1
    assert later["follow_up"]["inherited"] == ["metric net revenue"]


def test_a_follow_up_that_cannot_be_composed_for_certain_is_asked_back(
    client: TestClient,
) -> None:
    """Fail closed: two metrics before and one named now (which one does it replace?) is never
    answered as a fresh question; it is asked back, naming the previous question."""
    ident = _first(client, "gross revenue and net revenue by channel in 2023", "show")
    body = _ask(client, "and units sold?", ident)
    assert body["badge"] == "ask back"
    assert body["answer"] is None
    assert body["verdict"]["reasons"] == ["behaviour.follow_up_unclear"]
    message = body["verdict"]["provenance"]["message"]
    assert "gross revenue and net revenue by channel in 2023" in message
    assert "units sold" in message


def test_a_word_that_names_nothing_is_still_asked_back(client: TestClient) -> None:
    ident = _first(client, "net revenue by channel in Q2 2024", "show")
    body = _ask(client, "and purple?", ident)
    assert body["badge"] == "ask back" and body["answer"] is None


# --- unit level: compose_follow_up ----------------------------------------------------------


@pytest.fixture(scope="module")
def shop(service: Service) -> Any:
    return next(iter(service.databases.values()))


@pytest.mark.parametrize(
    ("previous", "fragment", "metrics", "period", "groups"),
    [
        ("revenue in 2023 by country", "gross revenue", ("gross_revenue",), "2023", ("country",)),
        ("revenue in 2023 by country", "net", ("net_revenue",), "2023", ("country",)),
        (
            "sales by channel last month",
            "net sales",
            ("net_revenue",),
            "October 2024",
            ("channel",),
        ),
        ("sales by channel last month", "gross", ("gross_revenue",), "October 2024", ("channel",)),
        (
            "net revenue by channel in Q2 2024",
            "and units sold?",
            ("units_sold",),
            "Q2 2024",
            ("channel",),
        ),
        ("net revenue by channel in Q2 2024", "in 2023?", ("net_revenue",), "2023", ("channel",)),
        (
            "net revenue by channel in Q2 2024",
            "now by category",
            ("net_revenue",),
            "Q2 2024",
            ("category",),
        ),
        (
            "What was the number of orders in 2023?",
            "and by country",
            ("order_count",),
            "2023",
            ("country",),
        ),
        (
            "units sold by category in 2024",
            "net sales last month",
            ("net_revenue",),
            "October 2024",
            ("category",),
        ),
        (
            "registered customers by country in 2023",
            "what about buyers",
            ("purchasing_customers",),
            "2023",
            ("country",),
        ),
    ],
)
def test_compose_reads_as_the_previous_question_with_the_change(
    shop: Any,
    previous: str,
    fragment: str,
    metrics: tuple[str, ...],
    period: str,
    groups: tuple[str, ...],
) -> None:
    composed = compose_follow_up(previous, fragment, shop.layer, shop.agent.lexicon)
    assert composed["unclear"] is None, composed
    reading = read(composed["question"], shop.layer, shop.agent.lexicon)
    assert reading.metrics == metrics, composed["question"]
    assert reading.period is not None and reading.period.label == period, composed["question"]
    assert reading.groups == groups, composed["question"]
    assert not reading.unread and not reading.ambiguous, composed["question"]


def test_compose_lists_what_it_kept_and_changed(shop: Any) -> None:
    composed = compose_follow_up(
        "net revenue in 2023 by country excluding DE",
        "and units sold?",
        shop.layer,
        shop.agent.lexicon,
    )
    assert composed["inherited"] == ["period 2023", "grouping country", "filter country is not DE"]
    assert composed["replaced"] == ["metric net revenue -> units sold"]
    reading = read(composed["question"], shop.layer, shop.agent.lexicon)
    assert reading.metrics == ("units_sold",)
    assert [(f.dimension, f.values, f.negated) for f in reading.filters] == [
        ("country", ("DE",), True)
    ]


def test_compose_fails_closed_when_the_metric_to_replace_is_not_one(shop: Any) -> None:
    composed = compose_follow_up(
        "gross revenue and net revenue by channel in 2023",
        "units sold",
        shop.layer,
        shop.agent.lexicon,
    )
    assert composed["unclear"]
    assert composed["inherited"] == [] and composed["replaced"] == []


def test_compose_with_nothing_to_keep_says_so(shop: Any) -> None:
    """A previous question with no reading to keep (refused): the fragment is asked as it is
    and the follow-up says plainly that nothing of the previous question was kept."""
    composed = compose_follow_up(
        "Delete all cancelled orders.", "units sold", shop.layer, shop.agent.lexicon
    )
    assert composed["question"] == "units sold?"
    assert composed["inherited"] == [] and composed["unclear"] is None
    assert (
        composed["not_kept"]
        == "the previous question had no metric, period, grouping or filter to keep"
    )


def test_the_ask_back_choices_put_the_choice_where_the_ambiguous_word_was(
    client: TestClient,
) -> None:
    """The page's clarification buttons re-ask ``choices[i].question``; for "sales by channel
    last month" they were "... (meaning net revenue)?", which was abstained on."""
    body = _ask(client, "sales by channel last month")
    questions = {c["label"]: c["question"] for c in body["choices"]}
    assert questions == {
        "gross revenue": "gross revenue by channel last month",
        "net revenue": "net revenue by channel last month",
    }
    assert _by_group(_ask(client, questions["net revenue"])) == NET_OCT_2024_BY_CHANNEL
    assert _by_group(_ask(client, questions["gross revenue"])) == GROSS_OCT_2024_BY_CHANNEL


def test_a_metric_after_an_abstention_keeps_what_was_read(client: TestClient) -> None:
    """ "number of students" names no metric (abstained); the reply "units sold" keeps the
    period and grouping that were read. SELECT c.country, SUM(l.quantity) ... October 2024."""
    ident = _first(client, "number of students by country last month", "abstain")
    body = _ask(client, "units sold", ident)
    assert _by_group(body) == {"BR": 239, "DE": 1061, "FR": 744, "GB": 590, "JP": 520, "US": 1308}
    assert body["follow_up"]["inherited"] == ["period October 2024", "grouping country"]


def test_a_refused_question_keeps_nothing_and_says_so(client: TestClient) -> None:
    ident = _first(client, "Delete all cancelled orders.", "refuse")
    body = _ask(client, "units sold", ident)
    assert body["follow_up"]["inherited"] == []
    assert "asked on its own: the previous question was refused" in body["reading"]


def test_a_new_top_n_is_said_in_place_of_the_old(client: TestClient) -> None:
    # SELECT c.country, SUM(quantity*unit_price - discount) ... 2023 ORDER BY 2 DESC LIMIT 5
    ident = _first(client, "top 3 countries by net revenue in 2023", "show")
    body = _ask(client, "top 5?", ident)
    rows = [(str(r[0]), round(float(r[-1]), 2)) for r in body["answer"]["result"]["rows"]]
    assert rows == [
        ("US", 409019.72),
        ("DE", 353556.25),
        ("FR", 233508.63),
        ("GB", 224224.54),
        ("JP", 133404.58),
    ]
    assert body["follow_up"]["replaced"] == ["ranking top 3 -> top 5"]


def test_a_top_n_is_added_to_a_grouping(client: TestClient) -> None:
    # SELECT o.channel_code, SUM(l.quantity) ... 2023 GROUP BY 1 ORDER BY 2 DESC LIMIT 2
    ident = _first(client, "units sold by channel in 2023", "show")
    body = _ask(client, "and the top 2?", ident)
    rows = [(str(r[0]), int(r[-1])) for r in body["answer"]["result"]["rows"]]
    assert rows == [("W", 25993), ("A", 13794)]


def test_a_follow_up_of_an_unclear_follow_up_follows_the_question_before_it(
    client: TestClient,
) -> None:
    """The ask-back for an unclear follow-up composed nothing; a further follow-up composes
    with the question that one followed."""
    ident = _first(client, "gross revenue and net revenue by channel in 2023", "show")
    unclear = _ask(client, "what about units sold", ident)
    assert unclear["badge"] == "ask back"
    body = _ask(client, "in Q2 2024?", unclear["verdict"]["id"])
    assert body["follow_up"]["previous"] == "gross revenue and net revenue by channel in 2023"
    assert body["follow_up"]["replaced"] == ["period 2023 -> Q2 2024"]
    assert body["badge"] == "show"
    rows = body["answer"]["result"]["rows"]
    # SELECT o.channel_code, gross, net ... Q2 2024 GROUP BY 1 (the two metrics of the
    # question followed, in its period changed)
    got = {str(r[0]): tuple(round(float(v), 2) for v in r[1:]) for r in rows}
    assert got == {
        "A": (123065.43, 114160.13),
        "S": (58282.45, 54864.51),
        "W": (204418.80, 189889.98),
    }


# --- outside tryout 11: comparisons and periods without a year ------------------------------

NET_2023, NET_2022 = 1423902.87, 1189677.99  # our SQL: gross - SUM(discount), by year
# SELECT c.country, SUM(l.quantity*l.unit_price) ... Q1 2023 / March 2023, top 3
GROSS_Q1_2023_TOP3 = {"US": 89454.57, "DE": 68809.24, "FR": 55661.44}
GROSS_MARCH_2023_TOP3 = {"US": 36242.96, "DE": 22500.28, "FR": 21490.10}


def _numbers(body: dict[str, Any]) -> set[float]:
    assert body["badge"] == "show", (body["badge"], body["verdict"]["reasons"], body["reading"])
    return {
        round(float(cell), 2)
        for row in body["answer"]["result"]["rows"]
        for cell in row
        if isinstance(cell, int | float)
    }


@pytest.mark.parametrize(
    "fragment",
    ["compare with 2022", "vs 2022", "how does that compare to 2022?", "versus last year"],
)
def test_a_comparison_follow_up_compares_never_replaces_the_period(
    client: TestClient, fragment: str
) -> None:
    # The tester was shown 2022 alone ("Net revenue in 2022 was 1,189,677.99") at 1.00.
    ident = _first(client, "net revenue in 2023", "show")
    body = _ask(client, fragment, ident)
    assert {NET_2023, NET_2022} <= _numbers(body), body["follow_up"]
    assert body["follow_up"]["replaced"] == ["compared with 2022"]
    assert "period 2023" in body["follow_up"]["inherited"]


def test_a_comparison_that_also_changes_the_question_is_asked_back(client: TestClient) -> None:
    ident = _first(client, "net revenue in 2023", "show")
    body = _ask(client, "compare units sold with 2022", ident)
    assert body["badge"] == "ask back" and body["answer"] is None
    assert body["verdict"]["reasons"] == ["behaviour.follow_up_unclear"]


@pytest.mark.parametrize(
    ("fragment", "expected"),
    [("in Q1", GROSS_Q1_2023_TOP3), ("what about March", GROSS_MARCH_2023_TOP3)],
)
def test_a_period_without_a_year_takes_the_year_of_the_conversation(
    client: TestClient, fragment: str, expected: dict[str, float]
) -> None:
    # The tester was shown Q1 2024's and March 2024's rankings (the clock's year) at 1.00.
    ident = _first(client, "top 3 countries by gross revenue in 2023", "show")
    body = _ask(client, fragment, ident)
    assert _by_group(body) == expected
    assert body["follow_up"]["replaced"][0].startswith("period 2023 -> ")
    assert body["follow_up"]["replaced"][0].endswith(" 2023")


def test_a_period_without_a_year_after_two_years_is_asked_back(client: TestClient) -> None:
    ident = _first(client, "net revenue in 2023 compared with 2022", "show")
    body = _ask(client, "in Q1", ident)
    assert body["badge"] == "ask back" and body["answer"] is None
    assert "without a year" in body["verdict"]["provenance"]["message"]


# SELECT c.country, SUM(l.quantity) ... 2023 GROUP BY 1
UNITS_2023_BY_COUNTRY = {"BR": 2380, "DE": 11704, "FR": 7485, "GB": 7238, "JP": 4323, "US": 13608}


def test_a_chain_keeps_a_period_said_alone(client: TestClient) -> None:
    # "what about 2023" composed "units sold by channel 2023": the next link lost the period.
    ident = _first(client, "units sold by channel in Q2 2024", "show")
    middle = _ask(client, "what about 2023", ident)
    assert middle["badge"] == "show" and " in 2023" in middle["follow_up"]["question"]
    body = _ask(client, "now by country", middle["verdict"]["id"])
    assert _by_group(body) == UNITS_2023_BY_COUNTRY
    assert "period 2023" in body["follow_up"]["inherited"]


def test_only_is_said_of_the_ranking(client: TestClient) -> None:
    ident = _first(client, "top 3 countries by gross revenue in 2023", "show")
    body = _ask(client, "top 2 only", ident)
    assert _by_group(body) == {c: GROSS_2023_BY_COUNTRY[c] for c in ("US", "DE")}


# SELECT o.channel_code, SUM(quantity*unit_price) - SUM(discount) ... Jul-Dec 2023 GROUP BY 1
NET_H2_2023_BY_CHANNEL = {"A": 227959.53, "S": 119639.83, "W": 460492.71}


@pytest.mark.parametrize("fragment", ["and in H2", "what about the second half"])
def test_a_half_year_without_a_year_takes_the_year_of_the_conversation(
    client: TestClient, fragment: str
) -> None:
    # outside tryout 12: "and in H2" was read as a value 'H' and abstained on
    ident = _first(client, "net revenue by channel in 2023", "show")
    body = _ask(client, fragment, ident)
    assert _by_group(body) == NET_H2_2023_BY_CHANNEL
    assert body["follow_up"]["replaced"] == ["period 2023 -> H2 2023"]


@pytest.mark.parametrize("fragment", ["and for all countries?", "across all countries"])
def test_a_follow_up_lifts_a_filter_and_keeps_the_rest(client: TestClient, fragment: str) -> None:
    # outside tryout 12: "for all countries" after "only Mexico" was read as a value 'countries'
    ident = _first(client, "net revenue in 2023 in Germany", "show")
    body = _ask(client, fragment, ident)
    assert _value(body) == NET_2023
    assert body["follow_up"]["replaced"] == ["filter country = DE -> all"]
    assert body["follow_up"]["inherited"] == ["metric net revenue", "period 2023"]


def test_lifting_a_filter_the_question_did_not_have_is_asked_back(client: TestClient) -> None:
    ident = _first(client, "net revenue in 2023 in Germany", "show")
    body = _ask(client, "for all channels", ident)
    assert body["badge"] == "ask back" and body["answer"] is None
    assert body["verdict"]["reasons"] == ["behaviour.follow_up_unclear"]


# --- outside tryouts 11 and 12: replies to a did-you-mean --------------------------------------

# SELECT SUM(l.quantity*l.unit_price) ... WHERE c.country = 'DE' AND 2023: 380542.83
GROSS_2023_GERMANY = 380542.83
# SELECT o.channel_code, SUM(l.quantity*l.unit_price) ... 2023 GROUP BY 1
GROSS_2023_BY_CHANNEL = {"A": 451758.08, "S": 224378.52, "W": 854752.09}


def test_a_did_you_mean_offers_the_corrected_question(client: TestClient) -> None:
    """tryout 12 D27: the ask-back had ``choices`` [], so the page showed no button."""
    body = _ask(client, "gross revenue in Germny in 2023")
    assert body["badge"] == "ask back"
    assert [(c["label"], c["question"]) for c in body["choices"]] == [
        ("Germany (DE)", "gross revenue in Germany in 2023")  # as stored (tryout 26)
    ]
    assert _value(_ask(client, body["choices"][0]["question"])) == GROSS_2023_GERMANY


@pytest.mark.parametrize("reply", ["yes", "Germany", "yes, Germany", "germany please"])
def test_a_reply_to_a_did_you_mean_re_asks_it_corrected(client: TestClient, reply: str) -> None:
    """tryout 12 D28/D29: "yes" and "Germany" were appended to the typo ("... in Germny in
    2023 Germany?") and asked back again, the period lost from the reading."""
    ident = _first(client, "gross revenue in Germny in 2023", "ask back")
    body = _ask(client, reply, ident)
    assert _value(body) == GROSS_2023_GERMANY
    assert body["follow_up"]["question"] == "gross revenue in Germany in 2023?"
    assert body["follow_up"]["replaced"] == ["Germny (asked back) -> Germany (DE)"]
    assert body["follow_up"]["inherited"] == ["metric gross revenue", "period 2023"]


@pytest.mark.parametrize("reply", ["yes", "gross revenue", "yes please"])
def test_a_yes_to_a_misspelt_metric_keeps_the_grouping_and_period(
    client: TestClient, reply: str
) -> None:
    """tryout 11 F36: composed "gross revnue by channel in 2023 yes?" and asked back."""
    ident = _first(client, "gross revnue by channel in 2023", "ask back")
    assert _by_group(_ask(client, reply, ident)) == GROSS_2023_BY_CHANNEL


# SELECT SUM(l.quantity*l.unit_price) ... c.country = 'DE' AND 2024; and 2023 by channel
GROSS_2024_GERMANY = 353608.01
GROSS_2023_GERMANY_BY_CHANNEL = {"A": 113904.63, "S": 51117.48, "W": 215520.72}


@pytest.mark.parametrize("reply", ["Germany in 2024", "yes, in 2024", "germany, 2024 please"])
def test_a_choice_said_with_more_is_the_choice_then_a_follow_up(
    client: TestClient, reply: str
) -> None:
    ident = _first(client, "gross revenue in Germny in 2023", "ask back")
    body = _ask(client, reply, ident)
    assert _value(body) == GROSS_2024_GERMANY
    assert body["follow_up"]["replaced"] == [
        "Germny (asked back) -> Germany (DE)",
        "period 2023 -> 2024",
    ]


def test_a_yes_with_a_new_grouping(client: TestClient) -> None:
    ident = _first(client, "gross revenue in Germny in 2023", "ask back")
    assert _by_group(_ask(client, "yes, by channel", ident)) == GROSS_2023_GERMANY_BY_CHANNEL


@pytest.mark.parametrize(
    "reply", ["no", "France", "net revenue", "Germany and France", "Germany, or rather France"]
)
def test_a_reply_naming_no_choice_is_asked_back_again(client: TestClient, reply: str) -> None:
    """Fail closed: a reply that is not one of the choices, alone, is never guessed at."""
    ident = _first(client, "gross revenue in Germny in 2023", "ask back")
    body = _ask(client, reply, ident)
    assert body["badge"] == "ask back"
    assert body["verdict"]["reasons"] == ["behaviour.follow_up_unclear"]
    unclear = body["follow_up"]["unclear"]
    assert "it names none of the choices offered ('Germany (DE)') alone" in unclear


def test_a_period_ask_back_offers_each_period_as_a_choice(client: TestClient) -> None:
    """ "what about last quarter?" after Q1 2024 is Q4 2023 or the calendar's last full
    quarter (Q3 2024): asked back with both as buttons (``choices``), each a whole question that
    answers (the second outside re-check of tryout 39: the year ask-back had none)."""
    ident = _first(client, "net revenue by channel in Q1 2024", "show")
    body = _ask(client, "what about last quarter?", ident)
    assert body["badge"] == "ask back", body
    assert body["verdict"]["reasons"] == ["behaviour.follow_up_unclear"]
    assert [c["label"] for c in body["choices"]] == ["Q4 2023", "Q3 2024"], body["choices"]
    assert "choices" not in body["follow_up"]
    again = _ask(client, body["choices"][0]["question"])
    assert again["badge"] == "show" and "Q4 2023" in again["reading"], again["reading"]
    assert "channel" in again["reading"]


@pytest.mark.parametrize(
    ("refused", "follow_up"),
    [
        ("drop table orders", "number of orders in 2023?"),
        ("delete all orders from 2023", "units sold by channel in 2023"),
    ],
)
def test_a_follow_up_of_a_refused_question_is_asked_as_it_is(
    client: TestClient, refused: str, follow_up: str
) -> None:
    """Outside tryout 40 (F-4): "how many dogs?" after the refused "drop table Pets" was put
    together as "drop table how many dogs?" and asked back, quoting the refused text; docs/
    api.md says a follow-up of a refused question is asked as it is, and says so."""
    first = _ask(client, refused)
    assert first["verdict"]["behaviour"] == "refuse", first
    body = _ask(client, follow_up, first["verdict"]["id"])
    assert body["follow_up"]["question"] == follow_up
    assert body["follow_up"]["not_kept"] and body["follow_up"]["inherited"] == []
    assert refused.split()[0] not in body["reading"].lower()
    assert body["badge"] == "show", (body["badge"], body["verdict"]["reasons"])
