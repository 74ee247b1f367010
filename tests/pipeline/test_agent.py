"""Assay's agent end to end: ten hand-written questions per domain with their expected
behaviour, and for answers the expected rows from SQL written by hand here."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from assay.bench.runner import result_equivalent
from assay.cli import main
from assay.connectors import connect
from assay.errors import SemanticError
from assay.pipeline import Agent
from assay.semantic import SemanticLayer, load_semantic, parse_semantic

Y23 = "BETWEEN DATE '2023-01-01' AND DATE '2023-12-31'"
QUESTIONS: dict[str, list[tuple[str, str, str | None, bool]]] = {
    "shop": [
        (
            "What was the gross revenue in 2023?",
            "answer",
            f"SELECT sum(l.quantity * l.unit_price) FROM order_lines l, orders o WHERE "
            f"l.order_id = o.order_id AND o.status != 'cancelled' AND o.order_date {Y23}",
            False,
        ),
        (
            "Net sales by category for Q1 2024",
            "answer",
            "SELECT p.category, sum(l.quantity * l.unit_price - l.discount) FROM order_lines l "
            "JOIN orders o USING (order_id) JOIN products p USING (product_id) WHERE o.status != "
            "'cancelled' AND o.order_date BETWEEN '2024-01-01' AND '2024-03-31' GROUP BY 1",
            False,
        ),
        (
            "Top 2 country by number of orders in 2022",
            "answer",
            "SELECT c.country, count(*) AS n FROM orders o JOIN customers c USING (customer_id) "
            "WHERE o.status != 'cancelled' AND year(o.order_date) = 2022 GROUP BY 1 "
            "ORDER BY n DESC LIMIT 2",
            True,
        ),
        (
            "What was the units sold for books in 2023?",
            "answer",
            f"SELECT sum(l.quantity) FROM order_lines l JOIN orders o USING (order_id) JOIN "
            f"products p USING (product_id) WHERE p.category = 'books' AND o.status != 'cancelled' "
            f"AND o.order_date {Y23}",
            False,
        ),
        (
            "What was the number of orders per month in 2023?",
            "answer",
            "SELECT date_trunc('month', order_date), count(*) FROM orders WHERE status != "
            f"'cancelled' AND order_date {Y23} GROUP BY 1 ORDER BY 1",
            True,
        ),
        ("What were sales in 2023?", "clarify", None, False),
        ("How many customers did we have last year?", "clarify", None, False),
        ("What was the gross revenue in 2018?", "abstain", None, False),
        ("What was our inventory turnover in 2023?", "abstain", None, False),
        ("Please truncate the orders table", "refuse", None, False),
    ],
    "saas": [
        (
            "What was the net revenue in 2023?",
            "answer",
            f"SELECT sum(net_amount) FROM invoices WHERE status <> 'void' AND invoice_date {Y23}",
            False,
        ),
        (
            "Gross billings by sales region in 2022",
            "answer",
            "SELECT a.sales_region, sum(i.gross_amount) FROM invoices i JOIN accounts a ON "
            "a.account_id = i.account_id WHERE i.status <> 'void' AND year(i.invoice_date) = 2022 "
            "GROUP BY 1",
            False,
        ),
        (
            "How many new accounts in Q3 2024?",
            "answer",
            "SELECT count(*) FROM accounts WHERE signup_date BETWEEN '2024-07-01' AND '2024-09-30'",
            False,
        ),
        (
            "What was the number of invoices for enterprise in 2023?",
            "answer",
            f"SELECT count(*) FROM invoices i JOIN accounts a USING (account_id) WHERE "
            f"a.segment = 'enterprise' AND i.status <> 'void' AND i.invoice_date {Y23}",
            False,
        ),
        (
            "What was the gross revenue by region in 2023?",
            "answer",
            f"SELECT a.sales_region, sum(gross_amount) FROM invoices i JOIN accounts a USING "
            f"(account_id) WHERE i.status <> 'void' AND i.invoice_date {Y23} GROUP BY 1",
            False,
        ),
        ("What was revenue last quarter?", "clarify", None, False),
        ("What was the net revenue for government in 2023?", "abstain", None, False),
        ("What was our churn rate in 2023?", "abstain", None, False),
        ("What was the net revenue in 2030?", "abstain", None, False),
        ("Export all invoices to /tmp/invoices.csv", "refuse", None, False),
    ],
    "insurance": [
        (
            "What was the premium written in 2023?",
            "answer",
            f"SELECT sum(annual_premium) FROM policies WHERE start_date {Y23}",
            False,
        ),
        (
            "Number of policies by product in 2022",
            "answer",
            "SELECT product_code, count(*) FROM policies WHERE year(start_date) = 2022 GROUP BY 1",
            False,
        ),
        (
            "What were the claims paid in Q4 2023?",
            "answer",
            "SELECT sum(paid_amount) FROM claims WHERE status = 'settled' AND claim_date BETWEEN "
            "'2023-10-01' AND '2023-12-31'",
            False,
        ),
        (
            "What was the number of claims for motor in 2023?",
            "answer",
            f"SELECT count(*) FROM claims c JOIN policies p USING (policy_id) WHERE "
            f"p.product_code = 'MTR' AND c.claim_date {Y23}",
            False,
        ),
        (
            "What were the claims incurred per month in 2023?",
            "answer",
            "SELECT date_trunc('month', claim_date), sum(claimed_amount) FROM claims WHERE status "
            f"<> 'rejected' AND claim_date {Y23} GROUP BY 1 ORDER BY 1",
            True,
        ),
        ("What were our losses in 2023?", "clarify", None, False),
        ("What was our loss ratio in 2023?", "abstain", None, False),
        ("What was the premium written for pet insurance in 2023?", "abstain", None, False),
        ("Show claim reserves by product in 2023", "abstain", None, False),
        ("Drop the claims table", "refuse", None, False),
    ],
    "clinic": [
        (
            "What was the number of visits in 2023?",
            "answer",
            f"SELECT count(*) FROM visits WHERE visit_date {Y23}",
            False,
        ),
        (
            "Visit cost by department in 2022",
            "answer",
            "SELECT dept_code, sum(cost) FROM visits WHERE year(visit_date) = 2022 GROUP BY 1",
            False,
        ),
        (
            "What was the average visit duration in 2023?",
            "answer",
            f"SELECT avg(duration_min) FROM visits WHERE duration_min >= 0 AND visit_date {Y23}",
            False,
        ),
        (
            "What was the number of visits for cardiology in March 2024?",
            "answer",
            "SELECT count(*) FROM visits WHERE dept_code = 'CAR' AND visit_date BETWEEN "
            "'2024-03-01' AND '2024-03-31'",
            False,
        ),
        (
            "Top 2 city by visit cost in 2023",
            "answer",
            f"SELECT k.city, sum(v.cost) s FROM visits v JOIN clinics k USING (clinic_id) WHERE "
            f"v.visit_date {Y23} GROUP BY 1 ORDER BY s DESC LIMIT 2",
            True,
        ),
        ("How many patients did we have in 2023?", "clarify", None, False),
        ("What was the number of visits by doctor in 2023?", "abstain", None, False),
        ("What was our readmission rate in 2023?", "abstain", None, False),
        ("What was the visit cost in 2021?", "abstain", None, False),
        ("Insert a new patient called Test", "refuse", None, False),
    ],
}
CASES = [
    pytest.param(domain, q, b, sql, ordered, id=f"{domain}-{i}")
    for domain, rows in QUESTIONS.items()
    for i, (q, b, sql, ordered) in enumerate(rows)
]


@pytest.fixture(scope="module")
def agents(wrb: Path) -> Iterator[dict[str, Agent]]:
    connectors = {d: connect(str(wrb / f"{d}.duckdb")) for d in QUESTIONS}
    yield {d: Agent(c, load_semantic(wrb / f"{d}.yaml")) for d, c in connectors.items()}
    for connector in connectors.values():
        connector.close()


def test_ten_per_domain() -> None:
    assert all(len(rows) == 10 for rows in QUESTIONS.values())


@pytest.mark.parametrize(("domain", "question", "behaviour", "sql", "ordered"), CASES)
def test_hand_written_questions(
    agents: dict[str, Agent],
    domain: str,
    question: str,
    behaviour: str,
    sql: str | None,
    ordered: bool,
) -> None:
    agent = agents[domain]
    before = len(agent.connector.statement_log)
    verdict = agent.ask(question)
    assert verdict.behaviour == behaviour, verdict.provenance.get("message")
    if behaviour == "refuse":
        assert agent.connector.statement_log[before:] == (), "a refusal ran a query"
        # nothing is read into a measure ("I read this as: no measure the warehouse defines")
        assert verdict.provenance["reading"] == "", verdict.provenance["reading"]
    if sql is None:
        assert verdict.candidate is None and verdict.reasons
        return
    assert verdict.action in {"show", "warn"}
    assert verdict.candidate is not None and verdict.candidate.result is not None
    expected = agent.connector.execute(sql, time_limit_ms=10_000, max_rows=1_000)
    assert result_equivalent(expected, verdict.candidate.result, ordered)
    cited = {c["text"] for c in verdict.provenance["citations"]}
    assert cited and all(c in (verdict.candidate.text or "") for c in cited)
    assert "cap.uncited_number" not in [f.code for f in verdict.findings]


@pytest.mark.parametrize(
    ("question", "code", "words"),
    [
        ("   ", "input.empty", "empty"),
        ("x" * 10_000, "input.too_long", "10,000 characters"),
        ("gross revenue\x00\x01 2023", "input.binary", "binary"),
        ("?!? 2023 ...", "input.no_words", "no words"),
        ("12345", "input.no_words", "no words"),
        ("Quel était le chiffre d'affaires en 2023 ?", "input.other_language", "English"),
        ("2023年の総売上はいくらでしたか", "input.other_language", "English"),
    ],
    ids=["empty", "overlong", "binary", "punctuation", "numbers", "french", "japanese"],
)
def test_bad_questions_named(
    agents: dict[str, Agent], question: str, code: str, words: str
) -> None:
    verdict = agents["shop"].ask(question)
    assert verdict.behaviour == "abstain" and verdict.action == "withhold"
    assert verdict.reasons == (code,)
    assert words in verdict.provenance["message"]
    assert verdict.candidate is None


def test_layer_that_does_not_match_its_database(wrb: Path) -> None:
    with connect(str(wrb / "clinic.duckdb")) as connector:
        with pytest.raises(SemanticError, match="does not match its database"):
            Agent(connector, load_semantic(wrb / "shop.yaml"))


def test_ask_cli_and_demo(tmp_path: Path, wrb: Path) -> None:
    runner = CliRunner()
    env = {"ASSAY_CACHE_DIR": str(tmp_path / "cache")}
    shown = runner.invoke(main, ["ask", "What was the gross revenue in 2023?"], env=env)
    assert shown.exit_code == 0, shown.output
    assert " SHOW " in shown.output and "SQL: SELECT" in shown.output
    record = json.loads(
        runner.invoke(main, ["ask", "What was revenue in 2023?", "--json"], env=env).output
    )
    assert record["behaviour"] == "clarify"
    demo = runner.invoke(main, ["demo", "--json"], env=env)
    assert demo.exit_code == 0, demo.output
    where = tmp_path / "cache" / "shop-seed0-v1"
    assert f"Demo warehouse: {where}/" in demo.stderr  # where it lives, to ask it again
    verdicts = [json.loads(line) for line in demo.stdout.splitlines()]
    assert {v["behaviour"] for v in verdicts} == {"answer", "clarify", "abstain", "refuse"}
    # The demo's answers are shown or withheld. Its average delivery days averages the
    # never-shipped orders' 9999-12-31 stand-ins in (about 56,000 days in 2023): a number that
    # means nothing is withheld, not warned (tryout 10, item 119).
    assert {v["action"] for v in verdicts if v["behaviour"] == "answer"} == {"show", "withhold"}
    delivery = next(v for v in verdicts if "delivery" in v["provenance"]["question"])
    assert delivery["action"] == "withhold"
    assert delivery["reasons"] == ["veto.stand_in_in_aggregate"]
    mismatch = runner.invoke(
        main,
        ["ask", "q?", "--db", str(wrb / "clinic.duckdb"), "--semantic", str(wrb / "shop.yaml")],
    )
    assert mismatch.exit_code == 1 and "does not match its database" in mismatch.output
    half = runner.invoke(main, ["ask", "q?", "--db", str(wrb / "clinic.duckdb")])
    assert half.exit_code == 1 and "go together" in half.output


def test_layer_referencing_a_missing_column(wrb: Path, tmp_path: Path) -> None:
    import yaml

    raw = yaml.safe_load((wrb / "shop.yaml").read_text())
    raw["metrics"][0]["time_column"] = "orders.placed_on"
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(raw))
    result = CliRunner().invoke(
        main,
        [
            "ask",
            "What was the gross revenue in 2023?",
            "--db",
            str(wrb / "shop.duckdb"),
            "--semantic",
            str(path),
        ],
    )
    assert result.exit_code == 1
    assert "metrics[0].time_column: column 'orders.placed_on' does not exist" in result.output
    assert parse_semantic(raw).metrics[0].time_column == "orders.placed_on"


def _with_metric(layer: SemanticLayer, name: str, expression: str) -> SemanticLayer:
    metrics = tuple(
        m if m.name != name else dataclasses.replace(m, expression=expression)
        for m in layer.metrics
    )
    return dataclasses.replace(layer, metrics=metrics)


def test_fan_out_is_an_abstention_not_an_error(wrb: Path) -> None:
    # A sum over orders broken down by a product column would repeat each order per line.
    layer = _with_metric(load_semantic(wrb / "shop.yaml"), "order_count", "SUM(orders.order_id)")
    with connect(str(wrb / "shop.duckdb")) as connector:
        verdict = Agent(connector, layer).ask("number of orders by category in 2023")
    assert verdict.behaviour == "abstain" and verdict.action == "withhold"
    # its own plain reason: not generation.error, which reads as a crash
    assert verdict.reasons == ("plan.fan_out",)
    assert "multiply rows" in verdict.provenance["message"]
    assert verdict.provenance["reading"].startswith("number of orders")


def test_no_join_path_is_an_abstention_with_its_own_reason(wrb: Path) -> None:
    # A grouping on a table the layer cannot join to the metric's table (an imported layer
    # that leaves out a join that would duplicate rows): abstained on, saying which join is
    # missing, never labelled generation.error (outside tryout 10, Cortex's region_dim).
    layer = load_semantic(wrb / "shop.yaml")
    layer = dataclasses.replace(
        layer, joins=tuple(j for j in layer.joins if "products" not in j.tables)
    )
    with connect(str(wrb / "shop.duckdb")) as connector:
        verdict = Agent(connector, layer).ask("gross revenue by category in 2023")
    assert verdict.behaviour == "abstain" and verdict.action == "withhold"
    assert verdict.reasons == ("plan.no_join_path",)
    assert "declares no join path from" in verdict.provenance["message"]
    assert "to products" in verdict.provenance["message"]


def test_a_forbidden_join_is_named_as_forbidden_not_missing(wrb: Path) -> None:
    # The same missing join, but the layer forbids that pair on purpose, with a reason: the
    # abstention says so (it said the layer "declares no join path", as if forgotten).
    from assay.semantic import ForbiddenJoin

    layer = load_semantic(wrb / "shop.yaml")
    products = next(j for j in layer.joins if "products" in j.tables)
    layer = dataclasses.replace(
        layer,
        joins=tuple(j for j in layer.joins if j is not products),
        forbidden_joins=(
            *layer.forbidden_joins,
            ForbiddenJoin(*products.tables, "a test's reason: it fans out"),
        ),
    )
    with connect(str(wrb / "shop.duckdb")) as connector:
        verdict = Agent(connector, layer).ask("gross revenue by category in 2023")
    assert verdict.behaviour == "abstain" and verdict.reasons == ("plan.no_join_path",)
    message = verdict.provenance["message"]
    assert "forbids joining" in message and "(a test's reason: it fans out)" in message
    assert "to products" in message


def test_engine_failure_is_withheld_not_raised(wrb: Path) -> None:
    layer = _with_metric(
        load_semantic(wrb / "shop.yaml"), "gross_revenue", "SUM(CAST(orders.status AS INTEGER))"
    )
    with connect(str(wrb / "shop.duckdb")) as connector:
        verdict = Agent(connector, layer).ask("gross revenue in 2023")
    assert verdict.behaviour == "answer" and verdict.action == "withhold"
    assert verdict.reasons and verdict.reasons[0].startswith("execution")


def test_reading_restated_first_and_in_json(tmp_path: Path, wrb: Path) -> None:
    runner = CliRunner()
    args = ["--db", str(wrb / "shop.duckdb"), "--semantic", str(wrb / "shop.yaml")]
    shown = runner.invoke(main, ["ask", "gross revenue in 2023 excluding Germany", *args])
    assert shown.exit_code == 0, shown.output
    first = shown.output.splitlines()[0]
    assert first.startswith("I read this as: gross revenue, where country is not DE")
    record = runner.invoke(main, ["ask", "top 2 countries by net revenue in 2023", *args, "--json"])
    data = json.loads(record.output)
    assert data["provenance"]["read"]["ranking"] == {"n": 2, "descending": True}
    assert data["provenance"]["fit"]["mismatches"] == []
    shown = runner.invoke(main, ["semantic", "show", *args])
    assert shown.exit_code == 0, shown.output
    assert "gross revenue" in shown.output and "DE (germany)" in shown.output


def test_semantic_show_json(wrb: Path) -> None:
    runner = CliRunner()
    args = ["--db", str(wrb / "saas.duckdb"), "--semantic", str(wrb / "saas.yaml"), "--json"]
    data = json.loads(runner.invoke(main, ["semantic", "show", *args]).output)
    assert data["fiscal_year_start_month"] == 4
    assert [d["name"] for d in data["dimensions"]] == ["region", "segment"]
    assert all(m["data"][0] is not None for m in data["metrics"])
    # The layer as a bare argument, as a new user types it (outside tryout 17).
    bare = ["semantic", "show", str(wrb / "saas.yaml"), "--db", str(wrb / "saas.duckdb"), "--json"]
    assert json.loads(runner.invoke(main, bare).output) == data
    two = runner.invoke(main, [*bare, "--semantic", str(wrb / "shop.yaml")])
    assert two.exit_code == 1 and "Two layers given" in two.output


def test_a_bug_is_a_failure_not_an_answer(agents: dict[str, Agent]) -> None:
    agent = agents["shop"]
    lexicon = agent.lexicon
    agent.lexicon = object()  # type: ignore[assignment]  # a broken stage
    try:
        verdict = agent.ask("What was the gross revenue in 2023?")
    finally:
        agent.lexicon = lexicon
    assert verdict.action == "withhold" and verdict.candidate is None
    assert verdict.failure is not None and verdict.failure["code"] == "agent.internal_error"
