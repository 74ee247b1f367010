"""A question-SQL signal on the planner's own answer decides it (outside tryout 39, F0).

"Line items received in 1997" was answered by the ship date and shown at 1.00 beside
``signal.column_mismatch`` naming the receipt date: the agent's rule (agreement_first) reads no
signal, so the check's finding was "also found" under a SHOW badge. The planner's SQL is
deterministic; a check that reads it against the question and disagrees is evidence against
the one answer there is: it is shown at most as a warning, the signal named
(``cap.planner_signal``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import SemanticLayer
from assay.semantic._model import Metric
from assay.types import Finding


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Agent]:
    """Web sales dated by when they shipped: a sale of 2001 shipped in 2002 is one of 2001."""
    path: Path = tmp_path_factory.mktemp("signal") / "web.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute(
            "CREATE TABLE web_sales (ws_order_number INTEGER, ws_sold_date DATE, "
            "ws_ship_date DATE, ws_net_paid DOUBLE)"
        )
        con.execute(
            "INSERT INTO web_sales VALUES (1, '2001-03-01', '2001-03-04', 10), "
            "(2, '2001-12-30', '2002-01-03', 20), (3, '2002-05-01', '2002-05-02', 30), "
            "(4, '2000-12-31', '2001-01-02', 40)"
        )
    layer = SemanticLayer(
        metrics=(
            Metric(
                "web_sales_count",
                "web sales count",
                ("web sales", "number of web sales"),
                "web_sales",
                "count(*)",
                "web_sales.ws_ship_date",
            ),
        ),
        clock=dt.date(2002, 12, 31),
    )
    connector = connect(str(path))
    yield Agent(connector, layer)
    connector.close()


def test_a_signal_on_the_planners_answer_caps_it_at_a_warning(agent: Agent) -> None:
    verdict = agent.ask("Web sales in 2001")
    codes = [f.code for f in verdict.findings]
    assert "signal.column_mismatch" in codes, codes
    assert verdict.action != "show", (verdict.action, verdict.reasons)
    assert "cap.planner_signal" in verdict.reasons, verdict.reasons
    cap = next(f for f in verdict.findings if f.code == "cap.planner_signal")
    assert "ws_sold_date" in cap.message  # the signal's own words are named


def test_no_signal_no_cap(agent: Agent) -> None:
    verdict = agent.ask("How many web sales were shipped in 2001?")
    codes = [f.code for f in verdict.findings]
    assert "cap.planner_signal" not in codes, codes


def test_only_question_signals_cap() -> None:
    from assay.pipeline._planner_signal import planner_signals

    found = (
        Finding("signal.column_mismatch", "signal", "reads the ship date"),
        Finding("note.something", "note", "n"),
    )
    (cap,) = planner_signals(found)
    assert cap.kind == "cap" and cap.code == "cap.planner_signal"
    assert cap.evidence == {"signals": ["signal.column_mismatch"]}
    assert planner_signals((Finding("note.something", "note", "n"),)) == ()
    # the planner's bounds are the reading's, checked against the layer by period_applied
    assert planner_signals((Finding("signal.period_bound", "signal", "q1 2024 bounds"),)) == ()


def test_a_per_word_inside_a_metrics_name_is_no_missing_grouping() -> None:
    from assay.pipeline._planner_signal import planner_signals
    from assay.semantic import read

    layer = SemanticLayer(
        metrics=(
            Metric("spv", "spend per visit", ("spend per visit",), "v", "SUM(v.x) / COUNT(*)"),
        ),
    )
    missing = (Finding("signal.grouping_missing", "signal", "no GROUP BY"),)
    assert planner_signals(missing, read("spend per visit", layer)) == ()
    assert planner_signals(missing, read("spend per visit per day", layer)) != ()
