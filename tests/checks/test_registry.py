"""Contract tests over the one check registry (scikit-learn ``test_common.py`` style): every
check in ``CHECKS`` has a case where it fires with its code and a case where it is silent, and
no code is emitted by two checks (a signal counted twice moves v3's cap)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import duckdb
import pytest

from assay.catalog import Catalog, ColumnInfo, ForeignKey, Profiles, TableInfo
from assay.checks import CHECKS, Check, CheckContext, JudgeReport, run_checks
from assay.connectors import PooledConnector, connect
from assay.generators import plan
from assay.semantic import JoinPath, Metric, Period, Ranking, Reading, SemanticLayer
from assay.types import Candidate, Result

YEAR = Period(dt.date(2021, 1, 1), dt.date(2022, 1, 1), "2021", "2021")
HEADCOUNT = Metric(
    "headcount",
    "Headcount",
    ("people",),
    "people",
    "COUNT(*)",
    "people.joined",
    ("people.status <> 'void'",),
)
MEAN_AGE = Metric("mean_age", "Mean age", ("age",), "people", "AVG(people.age)", "people.joined")
# a count over the one side of people -> teams: each team's name once per person
TEAM_NAMES = Metric("team_names", "Team names", ("team names",), "people", "COUNT(teams.name)")
LAYER = SemanticLayer(
    name="people",
    metrics=(HEADCOUNT, MEAN_AGE),
    coverage=(dt.date(2020, 1, 1), dt.date(2022, 12, 31)),
    tables=("people", "teams"),
)
READING = Reading("headcount in 2021", metrics=("headcount",), periods=(YEAR,))
# people -> teams with 40 people counted as having no team (a NULL or missing key)
TEAMED = replace(LAYER, joins=(JoinPath("people.team", "teams.team_id", unmatched=40),))


@pytest.fixture(scope="module")
def people(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PooledConnector]:
    """1,000 people whose `age` uses -1 for unknown (2% of rows), a status with a 'void' value,
    a join date over 2020-2022, a sex coded 'F' and 'M', seven teams, scores whose points
    are numbers stored as text, two named regions (1 north, 2 south), and ship modes
    ('AIR', 'REG AIR', 'RAIL') with a status coded 'O' or 'F'."""
    path: Path = tmp_path_factory.mktemp("registry") / "people.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE people AS SELECT i AS id, CASE WHEN i % 50 = 0 THEN -1 ELSE 18 + i % 60 END "
        "AS age, i % 7 AS team, CASE WHEN i % 10 = 0 THEN 'void' ELSE 'ok' END AS status, "
        "DATE '2020-01-01' + CAST(i AS INTEGER) AS joined, "
        "CASE WHEN i % 2 = 0 THEN 'F' ELSE 'M' END AS sex FROM range(1, 1001) t(i)"
    )
    con.execute("CREATE TABLE teams AS SELECT i AS team_id, 'T' || i AS name FROM range(0, 7) t(i)")
    # points stored as text: '98' is the largest read as text, 133 read as a number
    con.execute(
        "CREATE TABLE scores AS SELECT i AS id, CAST(i * 7 AS VARCHAR) AS points "
        "FROM range(1, 20) t(i)"
    )
    con.execute(
        "CREATE TABLE regions AS SELECT * FROM (VALUES (1, 'north'), (2, 'south')) v(id, region)"
    )
    # sales lines named by a ticket number and an item, and refunds of some of them
    con.execute(
        "CREATE TABLE lines AS SELECT t AS l_ticket_number, i AS l_item_sk "
        "FROM range(1, 21) a(t), range(1, 4) b(i)"
    )
    con.execute(
        "CREATE TABLE refunds AS SELECT l_ticket_number AS f_ticket_number, l_item_sk AS "
        "f_item_sk FROM lines WHERE l_ticket_number % 5 = 0"
    )
    # visits of people, named by the person's id and dated like their join date
    con.execute(
        "CREATE TABLE visits AS SELECT i % 1000 + 1 AS id, "
        "DATE '2020-01-01' + CAST(i % 900 AS INTEGER) AS joined FROM range(0, 2000) t(i)"
    )
    # who belongs to which team, by two keys: a person's and a team's, since a time of day
    con.execute(
        "CREATE TABLE memberships AS SELECT id AS person_id, team AS team_id, "
        "joined + INTERVAL 15 HOUR AS since FROM people"
    )
    # ship modes, one holding another's word and more ('REG AIR' beside 'AIR'), and a status
    # coded 'O' (open) or 'F'
    con.execute(
        "CREATE TABLE modes AS SELECT i AS id, ['AIR', 'REG AIR', 'RAIL'][i % 3 + 1] AS mode, "
        "CASE WHEN i % 2 = 0 THEN 'O' ELSE 'F' END AS status FROM range(0, 12) t(i)"
    )
    # revenue and its cost of goods sold, by its initials
    con.execute(
        "CREATE TABLE revenue AS SELECT i * 10 AS REVENUE, i * 6 AS COGS FROM range(1, 9) t(i)"
    )
    # plans of people, one in ten not recorded (NULL)
    con.execute(
        "CREATE TABLE plans AS SELECT i AS id, CASE WHEN i % 10 = 0 THEN NULL "
        "WHEN i % 3 = 0 THEN 'gold' ELSE 'basic' END AS plan FROM range(1, 51) t(i)"
    )
    con.close()
    with connect(str(path)) as connector:
        yield connector


Build = Callable[[PooledConnector], CheckContext]


def _run(
    connector: PooledConnector,
    sql: str,
    *,
    question: str = "q",
    text: str | None = None,
    **extra: Any,
) -> CheckContext:
    result = connector.execute(sql, time_limit_ms=5_000, max_rows=100)
    catalog = connector.catalog()
    ctx = CheckContext(
        question,
        Candidate(sql, (), text, result),
        connector.dialect,
        catalog,
        Profiles(connector, catalog),
    )
    return replace(ctx, **extra)


def _given(sql: str, result: Result, question: str = "q", **extra: Any) -> Build:
    """A context for a result given in a samples file: no database, no profiles."""
    ctx = replace(CheckContext(question, Candidate(sql, (), None, result), "duckdb"), **extra)
    return lambda _connector: ctx


def _planned(edit: Callable[[str], str] = lambda sql: sql, **extra: Any) -> Build:
    def build(connector: PooledConnector) -> CheckContext:
        sql = edit(plan(READING, LAYER, connector.dialect).sql)
        fields: dict[str, object] = {
            "reading": READING,
            "layer": LAYER,
            "metric": HEADCOUNT,
            "period": YEAR,
            "coverage": LAYER.coverage,
        }
        return _run(connector, sql, **{**fields, **extra})

    return build


def _sql(sql: str, **extra: Any) -> Build:
    return lambda connector: _run(connector, sql, **extra)


def _keyed(sql: str, question: str) -> Build:
    """A context whose catalogue declares ``people.team`` a key of ``regions.id``."""

    def build(connector: PooledConnector) -> CheckContext:
        ctx = _run(connector, sql, question=question)
        assert ctx.catalog is not None
        key = ForeignKey("people", ("team",), "regions", ("id",))
        catalog = replace(ctx.catalog, foreign_keys=(*ctx.catalog.foreign_keys, key))
        return replace(ctx, catalog=catalog, profiles=Profiles(connector, catalog))

    return build


ONE = Result(("n",), ((7,),), 1)
# a catalogue alone (no database): two columns of one table, named after the table's prefix
SALES = Catalog(
    (
        TableInfo(
            "store_sales",
            (ColumnInfo("ss_net_paid", "DECIMAL"), ColumnInfo("ss_net_profit", "DECIMAL")),
        ),
    )
)


@dataclass(frozen=True)
class Case:
    code: str
    fires: Build
    silent: Build


CASES: dict[str, Case] = {
    "reading_fit": Case(
        "veto.reading_mismatch",
        _planned(lambda sql: sql.replace("2022-01-01", "2023-01-01")),
        _planned(),
    ),
    "required_filters_applied": Case(
        "cap.required_filter_missing",
        _sql("SELECT COUNT(*) FROM people", metric=HEADCOUNT),
        _sql("SELECT COUNT(*) FROM people WHERE people.status <> 'void'", metric=HEADCOUNT),
    ),
    "period_applied": Case(
        "cap.period_not_applied",
        _sql("SELECT COUNT(*) FROM people WHERE status <> 'void'", metric=HEADCOUNT, period=YEAR),
        _planned(),
    ),
    "possible_values": Case(
        "veto.impossible_value",
        _given("SELECT -3", Result(("n",), ((-3,),), 1), metric=HEADCOUNT),
        _given("SELECT 3", Result(("n",), ((3,),), 1), metric=HEADCOUNT),
    ),
    "stand_in_in_aggregate": Case(
        "veto.stand_in_in_aggregate",
        _sql("SELECT AVG(age) FROM people", metric=MEAN_AGE),
        _sql("SELECT COUNT(*) FROM people WHERE people.status <> 'void'", metric=HEADCOUNT),
    ),
    "fan_out_in_metric": Case(
        "cap.fan_out_in_metric",
        _sql(
            "SELECT COUNT(t.name) FROM people p JOIN teams t ON p.team = t.team_id",
            metric=TEAM_NAMES,
        ),
        _sql("SELECT AVG(people.age) FROM people", metric=MEAN_AGE),
    ),
    "unmatched_rows": Case(
        "cap.unmatched_rows",
        _sql(
            "SELECT COUNT(*) FROM people p JOIN teams t ON p.team = t.team_id WHERE t.name = 'T1'",
            layer=TEAMED,
        ),
        _sql(
            "SELECT t.name, COUNT(*) FROM people p LEFT JOIN teams t ON p.team = t.team_id "
            "GROUP BY t.name",
            layer=TEAMED,
        ),
    ),
    "tables_exist": Case(
        "veto.missing_table",
        lambda c: replace(_run(c, "SELECT 1"), candidate=Candidate("SELECT * FROM nowhere")),
        _sql("SELECT id FROM people"),
    ),
    "join_readiness": Case(
        "veto.bad_join",
        _sql("SELECT p.id FROM people p JOIN teams t ON p.age = t.team_id"),
        _sql("SELECT p.id FROM people p JOIN teams t ON p.team = t.team_id"),
    ),
    "stand_in_values": Case(
        "veto.stand_in_returned",
        _sql("SELECT id, age FROM people WHERE id <= 60"),
        _sql("SELECT id, age FROM people WHERE age > 0 AND id <= 60"),
    ),
    "numbers_cited": Case(
        "cap.uncited_number",
        _given("SELECT 7", ONE, candidate=Candidate("SELECT 7", (), "There are 42.", ONE)),
        _given("SELECT 7", ONE, candidate=Candidate("SELECT 7", (), "There are 7.", ONE)),
    ),
    "answer_well_formed": Case(
        "veto.garbled_answer",
        _given(
            "SELECT 7",
            ONE,
            candidate=Candidate("SELECT 7", (), "Headcount by None: 7.", ONE),
            reading=READING,
        ),
        _given(
            "SELECT 7",
            ONE,
            candidate=Candidate("SELECT 7", (), "Headcount in 2024 was 7.", ONE),
            reading=READING,
        ),
    ),
    "judge_findings": Case(
        "cap.incomplete",
        _given("SELECT 7", ONE, judge=JudgeReport(complete=0.25)),
        _given("SELECT 7", ONE, judge=JudgeReport(complete=1.0)),
    ),
    "empty_result": Case(
        "signal.empty_result",
        _given("SELECT 7 WHERE false", Result(("n",), (), 0)),
        _given("SELECT 7", ONE),
    ),
    "groups_add_up": Case(
        "veto.groups_do_not_add_up",
        # team 0 matches no row of teams shifted by one: its people vanish from the breakdown
        _sql(
            "SELECT t.name AS team, COUNT(*) AS value FROM people AS p JOIN teams AS t "
            "ON p.team = t.team_id + 1 WHERE p.status <> 'void' GROUP BY t.name",
            metric=HEADCOUNT,
        ),
        _sql(
            "SELECT CASE WHEN t.team_id IS NULL THEN '(no teams)' ELSE t.name END AS team, "
            "COUNT(*) AS value FROM people AS p LEFT JOIN teams AS t ON p.team = t.team_id + 1 "
            "WHERE p.status <> 'void' GROUP BY t.name, (t.team_id IS NULL)",
            metric=HEADCOUNT,
        ),
    ),
    "limit_cuts_tie": Case(
        "cap.limit_cuts_tie",
        # seven teams of people: the first two teams by size tie
        _sql("SELECT team FROM people GROUP BY team ORDER BY COUNT(*) DESC LIMIT 1"),
        _sql("SELECT team FROM people GROUP BY team ORDER BY COUNT(*) DESC, team LIMIT 1"),
    ),
    "aggregate_fit": Case(
        "signal.aggregate_mismatch",
        _given("SELECT avg(age) FROM people", ONE, "What is the total age of people?"),
        _given("SELECT sum(age) FROM people", ONE, "What is the total age of people?"),
    ),
    "ranking_fit": Case(
        "signal.ranking_mismatch",
        _given(
            "SELECT id FROM people ORDER BY age ASC LIMIT 1",
            ONE,
            "Which person has the highest age?",
        ),
        _given(
            "SELECT id FROM people ORDER BY age DESC LIMIT 1",
            ONE,
            "Which person has the highest age?",
        ),
    ),
    "comparison_fit": Case(
        "signal.comparison_flipped",
        _given("SELECT id FROM people WHERE age < 30", ONE, "Which people are older than 30?"),
        _given("SELECT id FROM people WHERE age > 30", ONE, "Which people are older than 30?"),
    ),
    "grouping_fit": Case(
        "signal.grouping_missing",
        _given("SELECT avg(age) FROM people", ONE, "What is the average age for each team?"),
        _given(
            "SELECT team, avg(age) FROM people GROUP BY team",
            ONE,
            "What is the average age for each team?",
        ),
    ),
    "projection_fit": Case(
        "signal.projection_short",
        _given(
            "SELECT name FROM people",
            Result(("name",), (("a",), ("b",)), 2),
            "What are the names and ages of people?",
        ),
        _given(
            "SELECT name, age FROM people",
            Result(("name", "age"), (("a", 1), ("b", 2)), 2),
            "What are the names and ages of people?",
        ),
    ),
    "literal_fit": Case(
        "signal.literal_missing",
        _given("SELECT count(*) FROM people WHERE age = 41", ONE, "How many people are 40?"),
        _given("SELECT count(*) FROM people WHERE age = 40", ONE, "How many people are 40?"),
    ),
    "result_shape": Case(
        "signal.shape_mismatch",
        _given(
            "SELECT count(*) FROM people GROUP BY team",
            Result(("n",), ((1,), (2,), (3,)), 3),
            "How many people are there?",
        ),
        _given("SELECT count(*) FROM people", ONE, "How many people are there?"),
    ),
    "duplicate_rows": Case(
        "signal.duplicate_rows",
        _given("SELECT team FROM people", Result(("team",), ((1,), (1,), (1,), (2,)), 4)),
        _given("SELECT team FROM people", Result(("team",), ((1,), (2,), (3,), (4,)), 4)),
    ),
    "literal_in_data": Case(
        "signal.literal_not_in_data",
        _sql("SELECT count(*) FROM people WHERE status = 'Void'"),
        _sql("SELECT count(*) FROM people WHERE status = 'void'"),
    ),
    "code_meaning": Case(
        "signal.code_flipped",
        _sql("SELECT count(*) FROM people WHERE sex = 'M'", question="How many women are there?"),
        _sql("SELECT count(*) FROM people WHERE sex = 'F'", question="How many women are there?"),
    ),
    "code_dropped": Case(
        "signal.code_dropped",
        _sql("SELECT count(*) FROM people", question="How many women are there?"),
        _sql("SELECT count(*) FROM people WHERE sex = 'F'", question="How many women are there?"),
    ),
    "key_meaning": Case(
        "signal.key_misread",
        _keyed("SELECT count(*) FROM people WHERE team = 1", "How many people are in the south?"),
        _keyed("SELECT count(*) FROM people WHERE team = 2", "How many people are in the south?"),
    ),
    "value_dropped": Case(
        "signal.value_dropped",
        _sql("SELECT count(*) FROM people", question="How many void people are there?"),
        _sql(
            "SELECT count(*) FROM people WHERE status = 'void'",
            question="How many void people are there?",
        ),
    ),
    "value_swapped": Case(
        "signal.value_swapped",
        _sql(
            "SELECT count(*) FROM people WHERE status = 'ok'",
            question="How many void people are there?",
        ),
        _sql(
            "SELECT count(*) FROM people WHERE status = 'void'",
            question="How many void people are there?",
        ),
    ),
    "status_dropped": Case(
        "signal.status_dropped",
        _sql("SELECT count(*) FROM modes", question="How many open modes are there?"),
        _sql(
            "SELECT count(*) FROM modes WHERE status = 'O'",
            question="How many open modes are there?",
        ),
    ),
    "fuller_value_said": Case(
        "signal.fuller_value_said",
        _sql("SELECT count(*) FROM modes WHERE mode = 'AIR'", question="How many by regular air?"),
        _sql(
            "SELECT count(*) FROM modes WHERE mode = 'REG AIR'", question="How many by regular air?"
        ),
    ),
    "columns_compared_backwards": Case(
        "signal.columns_compared_backwards",
        _sql(
            "SELECT count(*) FROM people WHERE team < age",
            question="How many people have an age before their team?",
        ),
        _sql(
            "SELECT count(*) FROM people WHERE team > age",
            question="How many people have an age before their team?",
        ),
    ),
    "bound_unasked": Case(
        "signal.bound_unasked",
        _sql("SELECT count(*) FROM people WHERE team > 3", question="How many people are there?"),
        _sql("SELECT count(*) FROM people", question="How many people are there?"),
    ),
    "code_unasked": Case(
        "signal.code_unasked",
        _sql(
            "SELECT count(*) FROM people WHERE age > 30 AND sex = 'F'",
            question="How many people are older than 30?",
        ),
        _sql(
            "SELECT count(*) FROM people WHERE age > 30 AND sex = 'F'",
            question="How many women are older than 30?",
        ),
    ),
    "sign_dropped": Case(
        "signal.sign_dropped",
        _sql("SELECT count(*) FROM people", question="How many people have a positive team?"),
        _sql(
            "SELECT count(*) FROM people WHERE team > 0",
            question="How many people have a positive team?",
        ),
    ),
    "always_true_filter": Case(
        "signal.always_true_filter",
        _sql("SELECT count(*) FROM people WHERE team <> 1 OR team <> 2"),
        _sql("SELECT count(*) FROM people WHERE team <> 1 AND team <> 2"),
    ),
    "zero_count": Case(
        "signal.zero_count",
        _sql("SELECT count(*) FROM people WHERE age > 100"),
        _sql("SELECT count(*) FROM people WHERE age > 70"),
    ),
    "order_fit": Case(
        "signal.order_missing",
        _given(
            "SELECT id, age FROM people",
            Result(("id", "age"), ((1, 30), (2, 40)), 2),
            "List people ordered by age from the oldest to the youngest.",
        ),
        _given(
            "SELECT id, age FROM people ORDER BY age DESC",
            Result(("id", "age"), ((2, 40), (1, 30)), 2),
            "List people ordered by age from the oldest to the youngest.",
        ),
    ),
    "table_fit": Case(
        "signal.table_mismatch",
        _sql("SELECT count(*) FROM teams", question="How many people are there?"),
        _sql("SELECT count(*) FROM people", question="How many people are there?"),
    ),
    "column_fit": Case(
        "signal.column_mismatch",
        _given(
            "SELECT sum(ss_net_paid) FROM store_sales",
            ONE,
            "What is the total net profit?",
            catalog=SALES,
        ),
        _given(
            "SELECT sum(ss_net_profit) FROM store_sales",
            ONE,
            "What is the total net profit?",
            catalog=SALES,
        ),
    ),
    "thin_evidence": Case(
        "cap.thin_evidence",
        _given("SELECT 7", ONE, candidate=Candidate("SELECT 7", (), "There are 7.", ONE)),
        _given(
            "SELECT 7",
            ONE,
            candidate=Candidate("SELECT 7", (), "There are 7.", ONE),
            measures={"g_tab": 1.0, "schema": 1.0, "complete": 1.0},
        ),
    ),
}

# The WHERE's conditions (checks/_conditions.py): each on the people table.
OLDER = "How many people are older than 30?"
CASES.update(
    {
        "unsatisfiable_filter": Case(
            "signal.unsatisfiable_filter",
            _sql("SELECT count(*) FROM people WHERE age = 30 AND age = 31"),
            _sql("SELECT count(*) FROM people WHERE age = 30 OR age = 31"),
        ),
        "negation_dropped": Case(
            "signal.negation_dropped",
            _sql("SELECT count(*) FROM people WHERE status = 'void'", question="People not void?"),
            _sql("SELECT count(*) FROM people WHERE status <> 'void'", question="People not void?"),
        ),
        "negation_added": Case(
            "signal.negation_added",
            _sql("SELECT count(*) FROM people WHERE status <> 'void'", question="Void people?"),
            _sql("SELECT count(*) FROM people WHERE status = 'void'", question="Void people?"),
        ),
        "bound_strictness": Case(
            "signal.bound_strictness",
            _sql("SELECT count(*) FROM people WHERE age >= 30", question=OLDER),
            _sql("SELECT count(*) FROM people WHERE age > 30", question=OLDER),
        ),
        "date_bound_strictness": Case(
            "signal.date_bound_strictness",
            _sql(
                "SELECT count(*) FROM people WHERE joined < '2021-12-31'",
                question="How many people joined through December 31, 2021?",
            ),
            _sql(
                "SELECT count(*) FROM people WHERE joined <= '2021-12-31'",
                question="How many people joined through December 31, 2021?",
            ),
        ),
        "period_end_included": Case(
            "signal.period_bound",
            _sql(
                "SELECT count(*) FROM people WHERE joined BETWEEN '2021-01-01' AND '2022-01-01'",
                question="How many people joined in 2021?",
            ),
            _sql(
                "SELECT count(*) FROM people WHERE joined BETWEEN '2021-01-01' AND '2021-12-31'",
                question="How many people joined in 2021?",
            ),
        ),
        "bound_on_other_column": Case(
            "signal.bound_on_other_column",
            _sql(
                "SELECT count(*) FROM people WHERE team > 40", question="People with age over 40?"
            ),
            _sql("SELECT count(*) FROM people WHERE age > 40", question="People with age over 40?"),
        ),
    }
)

# Negated verbs, exclusive ranges, OR precedence, "both" (checks/_negations.py).
NO_TEAM = "People who do not have a team?"
STRICT_AGES = "People aged strictly between 30 and 40?"
BOTH_TEAMS = "Ages found in both team 1 and team 2?"
CASES.update(
    {
        "negation_missing": Case(
            "signal.negation_missing",
            _sql("SELECT id FROM people JOIN teams ON team = team_id", question=NO_TEAM),
            _sql(
                "SELECT id FROM people WHERE team NOT IN (SELECT team_id FROM teams)",
                question=NO_TEAM,
            ),
        ),
        "between_strictness": Case(
            "signal.between_strictness",
            _sql("SELECT count(*) FROM people WHERE age BETWEEN 30 AND 40", question=STRICT_AGES),
            _sql("SELECT count(*) FROM people WHERE age > 30 AND age < 40", question=STRICT_AGES),
        ),
        "or_precedence": Case(
            "signal.or_precedence",
            _sql("SELECT count(*) FROM people WHERE status = 'ok' AND team = 1 OR team = 2"),
            _sql("SELECT count(*) FROM people WHERE status = 'ok' AND (team = 1 OR team = 2)"),
        ),
        "numbers_as_text": Case(
            "signal.numbers_as_text",
            _sql("SELECT max(points) FROM scores"),
            _sql("SELECT max(CAST(points AS INTEGER)) FROM scores"),
        ),
        "both_as_either": Case(
            "signal.both_as_either",
            _sql("SELECT DISTINCT age FROM people WHERE team IN (1, 2)", question=BOTH_TEAMS),
            _sql(
                "SELECT age FROM people WHERE team = 1 INTERSECT "
                "SELECT age FROM people WHERE team = 2",
                question=BOTH_TEAMS,
            ),
        ),
    }
)

# A join on part of a two-column key, or on dates alone beside a shared key, a place reached
# through a table the question never names (checks/_other_role.py), "both" as UNION,
# an EXCEPT swapped, a share compared the other way (checks/_partial_keys.py,
# checks/_date_joins.py, checks/_set_ops.py).
BOTH_AS_UNION = "Ages of people who are in both team 1 and team 2?"
BUT_NOT = "Ages of people in team 1 but not in team 2?"
HALF_TEAM = "People whose age is more than half of their team?"
IN_TEAM = "How many memberships are in team T3?"
CASES.update(
    {
        "date_join": Case(
            "signal.date_join",
            _sql("SELECT count(*) FROM people p JOIN visits v ON p.joined = v.joined"),
            _sql("SELECT count(*) FROM people p JOIN visits v ON p.id = v.id"),
        ),
        "reached_through_other_role": Case(
            "signal.reached_through_other_role",
            _sql(
                "SELECT count(*) FROM memberships m JOIN people p ON m.person_id = p.id "
                "JOIN teams t ON p.team = t.team_id WHERE t.name = 'T3'",
                question=IN_TEAM,
            ),
            _sql(
                "SELECT count(*) FROM memberships m JOIN people p ON m.person_id = p.id "
                "JOIN teams t ON m.team_id = t.team_id WHERE t.name = 'T3'",
                question=IN_TEAM,
            ),
        ),
        "partial_key_join": Case(
            "signal.partial_key_join",
            _sql("SELECT count(*) FROM lines JOIN refunds ON l_item_sk = f_item_sk"),
            _sql(
                "SELECT count(*) FROM lines JOIN refunds ON l_item_sk = f_item_sk "
                "AND l_ticket_number = f_ticket_number"
            ),
        ),
        "both_as_union": Case(
            "signal.both_as_union",
            _sql(
                "SELECT age FROM people WHERE team = 1 UNION SELECT age FROM people WHERE team = 2",
                question=BOTH_AS_UNION,
            ),
            _sql(
                "SELECT age FROM people WHERE team = 1 INTERSECT "
                "SELECT age FROM people WHERE team = 2",
                question=BOTH_AS_UNION,
            ),
        ),
        "except_swapped": Case(
            "signal.except_swapped",
            _sql(
                "SELECT age FROM people WHERE team = 2 EXCEPT "
                "SELECT age FROM people WHERE team = 1",
                question=BUT_NOT,
            ),
            _sql(
                "SELECT age FROM people WHERE team = 1 EXCEPT "
                "SELECT age FROM people WHERE team = 2",
                question=BUT_NOT,
            ),
        ),
        "share_comparison_flipped": Case(
            "signal.share_comparison_flipped",
            _sql("SELECT count(*) FROM people WHERE team / 2 > age", question=HALF_TEAM),
            _sql("SELECT count(*) FROM people WHERE age > team / 2", question=HALF_TEAM),
        ),
    }
)

# A month named as another's number, a join on another key, a day's end dropped from
# timestamps, a sum over a join that repeats its rows, a column spelled by its initials and
# not read, an overall rate averaged (checks/_month_named.py, _other_key.py, _day_end.py,
# _sum_fan_out.py, _spelled_out.py, _ratio_overall.py), a share whose denominator drops the
# whole's year (_share_whole.py).
AUGUST = "How many people joined in August 2021?"
OVERALL = "What is the overall ratio of age to team size?"
SHARE_2021 = "What share of the people who joined in 2021 were F?"
GROSS = "What was the gross profit (revenue minus cost of goods sold)?"
CASES.update(
    {
        "month_mismatch": Case(
            "signal.month_mismatch",
            _sql("SELECT count(*) FROM people WHERE month(joined) = 7", question=AUGUST),
            _sql("SELECT count(*) FROM people WHERE month(joined) = 8", question=AUGUST),
        ),
        "join_on_other_key": Case(
            "signal.join_on_other_key",
            _sql("SELECT count(*) FROM memberships m JOIN teams t ON m.person_id = t.team_id"),
            _sql("SELECT count(*) FROM memberships m JOIN teams t ON m.team_id = t.team_id"),
        ),
        "day_end_dropped": Case(
            "signal.day_end_dropped",
            _sql(
                "SELECT count(*) FROM memberships WHERE since BETWEEN '2021-01-01' AND '2021-03-31'"
            ),
            _sql("SELECT count(*) FROM memberships WHERE since < '2021-04-01'"),
        ),
        "ranked_by_other_measure": Case(
            "signal.ranked_by_other_measure",
            _sql(
                "SELECT team, SUM(age) FROM people GROUP BY team ORDER BY COUNT(id) DESC LIMIT 2",
                question="Which 2 teams have the highest total age?",
            ),
            _sql(
                "SELECT team, SUM(age) FROM people GROUP BY team ORDER BY SUM(age) DESC LIMIT 2",
                question="Which 2 teams have the highest total age?",
            ),
        ),
        "sum_fanned_out": Case(
            "signal.sum_fanned_out",
            _sql("SELECT SUM(p.age) FROM people p JOIN memberships m ON p.team = m.team_id"),
            _sql("SELECT SUM(p.age) FROM people p JOIN memberships m ON p.id = m.person_id"),
        ),
        "spelled_column_unread": Case(
            "signal.spelled_column_unread",
            _sql("SELECT SUM(REVENUE) FROM revenue", question=GROSS),
            _sql("SELECT SUM(REVENUE - COGS) FROM revenue", question=GROSS),
        ),
        "average_of_ratios": Case(
            "signal.average_of_ratios",
            _sql("SELECT AVG(age / (team + 1)) FROM people", question=OVERALL),
            _sql("SELECT SUM(age) / SUM(team + 1) FROM people", question=OVERALL),
        ),
        "share_whole_dropped": Case(
            "signal.share_whole_dropped",
            _sql(
                "SELECT (SELECT count(*) FROM people WHERE sex = 'F' AND joined >= "
                "DATE '2021-01-01' AND joined < DATE '2022-01-01') * 1.0 / "
                "(SELECT count(*) FROM people)",
                question=SHARE_2021,
            ),
            _sql(
                "SELECT avg(CASE WHEN sex = 'F' THEN 1.0 ELSE 0 END) FROM people WHERE "
                "joined >= DATE '2021-01-01' AND joined < DATE '2022-01-01'",
                question=SHARE_2021,
            ),
        ),
    }
)

# NOT IN a subquery that returns a NULL, a half of a year kept as other months (outside tryout
# 28: checks/_not_in_nulls.py, _year_parts.py).
HALF = "How many people joined in the first half of 2021?"
CASES.update(
    {
        "not_in_nulls": Case(
            "signal.not_in_nulls",
            _sql(
                "SELECT count(*) FROM people WHERE id NOT IN "
                "(SELECT CASE WHEN team = 0 THEN NULL ELSE team END FROM people)"
            ),
            _sql("SELECT count(*) FROM people WHERE id NOT IN (SELECT team FROM people)"),
        ),
        "months_of_part": Case(
            "signal.months_of_part",
            _sql(
                "SELECT count(*) FROM people WHERE year(joined) = 2021 "
                "AND month(joined) BETWEEN 1 AND 7",
                question=HALF,
            ),
            _sql(
                "SELECT count(*) FROM people WHERE year(joined) = 2021 "
                "AND month(joined) BETWEEN 1 AND 6",
                question=HALF,
            ),
        ),
    }
)

# One average asked as an average of group averages, an average per month over single rows,
# a bound on a total put on single rows (agreed22: checks/_averaged_averages.py,
# _period_average.py, _total_bound.py).
MONTHLY = "What is the average monthly age for each team?"
TOTAL_AGE = "How many teams have an age of more than 5,000 in total?"
CASES.update(
    {
        "average_of_averages": Case(
            "signal.average_of_averages",
            _sql(
                "SELECT AVG(a) FROM (SELECT team, AVG(age) AS a FROM people GROUP BY team) t",
                question="What is the overall average age?",
            ),
            _sql("SELECT AVG(age) FROM people", question="What is the overall average age?"),
        ),
        "period_rows_averaged": Case(
            "signal.period_rows_averaged",
            _sql("SELECT team, AVG(age) FROM people GROUP BY team", question=MONTHLY),
            _sql(
                "SELECT team, AVG(total) FROM (SELECT team, strftime(joined, '%Y-%m') AS m, "
                "SUM(age) AS total FROM people GROUP BY team, m) t GROUP BY team",
                question=MONTHLY,
            ),
        ),
        "total_bound_on_rows": Case(
            "signal.total_bound_on_rows",
            _sql("SELECT count(DISTINCT team) FROM people WHERE age > 5000", question=TOTAL_AGE),
            _sql(
                "SELECT count(*) FROM (SELECT team FROM people GROUP BY team "
                "HAVING SUM(age) > 5000) t",
                question=TOTAL_AGE,
            ),
        ),
    }
)

# A share of all rows over COUNT(c), c holding NULLs; a change over the later period's value
# (agreed22: checks/_share_of_non_null.py, _growth_base.py).
GOLD_SHARE = "What percentage of people are on the gold plan?"
GOLD_COUNT = "SELECT 100.0 * count(*) FILTER (WHERE plan = 'gold') / {} FROM plans"
GROWTH = "By what percentage did joins grow from 2020 to 2021?"
JOINED = "count(*) FILTER (WHERE year(joined) = {})"
CASES.update(
    {
        "share_of_non_null": Case(
            "signal.share_of_non_null",
            _sql(GOLD_COUNT.format("count(plan)"), question=GOLD_SHARE),
            _sql(GOLD_COUNT.format("count(*)"), question=GOLD_SHARE),
        ),
        "growth_over_later": Case(
            "signal.growth_over_later",
            _sql(
                f"SELECT ({JOINED.format(2021)} - {JOINED.format(2020)}) / {JOINED.format(2021)} "
                "FROM people",
                question=GROWTH,
            ),
            _sql(
                f"SELECT ({JOINED.format(2021)} - {JOINED.format(2020)}) / {JOINED.format(2020)} "
                "FROM people",
                question=GROWTH,
            ),
        ),
    }
)

# A date part compared with a number it never takes: DuckDB's day of the week is 0 to 6
# (agreed23: checks/_date_part_range.py).
WEEKEND = "How many people joined on a weekend?"
CASES["date_part_impossible"] = Case(
    "signal.date_part_impossible",
    _sql("SELECT count(*) FROM people WHERE dayofweek(joined) IN (6, 7)", question=WEEKEND),
    _sql("SELECT count(*) FROM people WHERE dayofweek(joined) IN (0, 6)", question=WEEKEND),
)

# An average over the teams' rows, each repeated once per member by the join (agreed23:
# checks/_sum_fan_out.py).
TEAM_AVERAGE = "What is the average team number of the teams that have members?"
CASES["average_fanned_out"] = Case(
    "signal.average_fanned_out",
    _sql(
        "SELECT avg(t.team_id) FROM teams t JOIN people p ON p.team = t.team_id WHERE p.age > 70",
        question=TEAM_AVERAGE,
    ),
    _sql(
        "SELECT avg(t.team_id) FROM teams t JOIN (SELECT DISTINCT team FROM people "
        "WHERE age > 70) p ON p.team = t.team_id",
        question=TEAM_AVERAGE,
    ),
)

# "Never" said of every row of a person, excluded row by row (agreed23:
# checks/_negated_rows.py).
NEVER_GOLD = "How many teams never had a gold plan member?"
CASES["negation_on_rows"] = Case(
    "signal.negation_on_rows",
    _sql(
        "SELECT count(DISTINCT p.team) FROM people p JOIN plans l ON l.id = p.id "
        "WHERE l.plan <> 'gold'",
        question=NEVER_GOLD,
    ),
    _sql(
        "SELECT count(DISTINCT team) FROM people WHERE team NOT IN (SELECT p.team FROM people p "
        "JOIN plans l ON l.id = p.id WHERE l.plan = 'gold')",
        question=NEVER_GOLD,
    ),
)

# "Include teams with none" and an inner join that drops them (agreed22:
# checks/_empty_groups.py).
WITH_NONE = "How many people does each team have? Include teams with none."
CASES["empty_groups_dropped"] = Case(
    "signal.empty_groups_dropped",
    _sql(
        "SELECT t.name, count(p.id) FROM teams t JOIN people p ON p.team = t.team_id "
        "GROUP BY t.name",
        question=WITH_NONE,
    ),
    _sql(
        "SELECT t.name, count(p.id) FROM teams t LEFT JOIN people p ON p.team = t.team_id "
        "GROUP BY t.name",
        question=WITH_NONE,
    ),
)

# A share's whole joined inner to a table only its part reads: people with no plan row (950
# of 1,000) dropped from the whole (outside tryout 32: checks/_share_join.py).
GOLD_SHARE = "What share of the people's total age comes from gold plan holders?"
GOLD = (
    "SELECT SUM(CASE WHEN pl.plan = 'gold' THEN p.age ELSE 0 END) * 1.0 / SUM(p.age) "
    "FROM people p JOIN plans pl ON pl.id = p.id"
)
CASES["share_whole_joined"] = Case(
    "signal.share_whole_joined",
    _sql(GOLD, question=GOLD_SHARE),
    _sql(GOLD.replace(" JOIN plans", " LEFT JOIN plans"), question=GOLD_SHARE),
)

# Two compared years, the second cut by the data's last day (checks/_compared_spans.py).
YEAR_2022 = Period(dt.date(2022, 1, 1), dt.date(2023, 1, 1), "2022", "2022")
COMPARED = {"reading": READING, "layer": LAYER, "periods": (YEAR, YEAR_2022)}
CASES["partial_comparison"] = Case(
    "cap.partial_comparison",
    _sql("SELECT 1", coverage=(dt.date(2020, 1, 1), dt.date(2022, 6, 30)), **COMPARED),
    _sql("SELECT 1", coverage=LAYER.coverage, **COMPARED),
)

# The year with the fewest people joined, ranked over a year grain: 2022 is cut by the data's
# last day in one case and whole in the other (checks/_ranked_buckets.py).
FEWEST_YEAR = Reading(
    "which year had the fewest headcount",
    metrics=("headcount",),
    grain="year",
    ranking=Ranking(1, descending=False),
)
FEWEST_SQL = "SELECT 2022 AS year, COUNT(*) AS value FROM people"
CASES["partial_ranking"] = Case(
    "cap.partial_ranking",
    _sql(
        FEWEST_SQL,
        reading=FEWEST_YEAR,
        layer=LAYER,
        metric=HEADCOUNT,
        coverage=(dt.date(2020, 1, 1), dt.date(2022, 6, 30)),
    ),
    _sql(FEWEST_SQL, reading=FEWEST_YEAR, layer=LAYER, metric=HEADCOUNT, coverage=LAYER.coverage),
)

BY_NAME: dict[str, Check] = {c.__name__: c for c in CHECKS}


def test_every_registered_check_has_a_case() -> None:
    assert len(BY_NAME) == len(CHECKS), "two registered checks share a name"
    assert set(BY_NAME) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES), ids=sorted(CASES))
def test_fires_with_its_code(name: str, people: PooledConnector) -> None:
    case = CASES[name]
    codes = [f.code for f in BY_NAME[name](case.fires(people)).findings]
    assert case.code in codes


@pytest.mark.parametrize("name", sorted(CASES), ids=sorted(CASES))
def test_silent_on_the_right_answer(name: str, people: PooledConnector) -> None:
    case = CASES[name]
    assert BY_NAME[name](case.silent(people)).findings == ()


def test_no_code_is_emitted_by_two_checks(people: PooledConnector) -> None:
    """Every case's context through every check: each case's code comes from its own check."""
    owners: dict[str, set[str]] = {}
    for case in CASES.values():
        ctx = case.fires(people)
        for name, check in BY_NAME.items():
            try:
                outcome = check(ctx)
            except Exception:  # a check may not apply to another check's context
                continue
            for finding in outcome.findings:
                owners.setdefault(finding.code, set()).add(name)
    shared = {code: names for code, names in owners.items() if len(names) > 1}
    assert shared == {}


def test_an_empty_planned_answer_is_one_signal(people: PooledConnector) -> None:
    """The layer's 'nothing to report' and the v3 empty-result signal are one finding."""
    empty = _sql(
        "SELECT COUNT(*) FROM people WHERE status <> 'void' AND joined >= DATE '2030-01-01' "
        "GROUP BY team",
        metric=HEADCOUNT,
    )(people)
    codes = run_checks(empty).codes()
    assert codes.count("signal.empty_result") == 1
    nulls = _given("SELECT NULL", Result(("n",), ((None,),), 1), metric=MEAN_AGE)(people)
    assert run_checks(nulls).codes().count("signal.empty_result") == 1
    without_metric = replace(nulls, metric=None)
    assert "signal.empty_result" not in run_checks(without_metric).codes()


@dataclass
class _SlowRunner:
    """The connector, but each query is one that runs for minutes: a machine so busy that a
    check's query cannot finish within the check's own time limit."""

    connector: PooledConnector
    dialect: str = "duckdb"

    def execute(self, sql: str, *, time_limit_ms: int, max_rows: int) -> Result:
        slow = "SELECT sum(hash(i)) FROM range(20000000000) t(i)"
        return self.connector.execute(slow, time_limit_ms=time_limit_ms, max_rows=max_rows)


def test_a_check_past_its_time_limit_withholds_and_names_the_limit(
    people: PooledConnector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A check's query past its own time limit (groups_add_up has 5 s) on a busy machine was
    withheld as ``veto.check_failed``, as if the check had found a fault. It is withheld still
    (not checked is not shown), but the reason says time ran out, and which limit."""
    import assay.checks._totals as totals

    monkeypatch.setattr(totals, "TIME_LIMIT_MS", 150)
    ctx = CASES["groups_add_up"].silent(people)
    assert ctx.profiles is not None
    ctx = replace(ctx, profiles=Profiles(_SlowRunner(people), ctx.profiles.catalog))
    report = run_checks(ctx, (totals.groups_add_up,))
    (finding,) = report.findings
    assert (finding.code, finding.kind) == ("veto.check_timed_out", "veto")
    assert "'groups_add_up' did not finish within its time limit of 150 ms" in finding.message
    assert finding.evidence["time_limit_ms"] == 150


@dataclass
class _FailingRunner:
    """The connector, but every query fails as an engine error would (a column the engine
    cannot cast, a lost connection)."""

    connector: PooledConnector
    dialect: str = "duckdb"

    def execute(self, sql: str, *, time_limit_ms: int, max_rows: int) -> Result:
        return self.connector.execute(
            "SELECT no_such_column FROM people", time_limit_ms=time_limit_ms, max_rows=max_rows
        )


def test_a_value_probe_that_cannot_run_withholds(people: PooledConnector) -> None:
    """literal_in_data's probe skipped the check on any error (fail open: an unchecked literal
    passed as checked). A probe that cannot run is now a check that could not run."""
    from assay.checks._values import literal_in_data

    ctx = CASES["literal_in_data"].silent(people)
    assert ctx.profiles is not None
    assert run_checks(ctx, (literal_in_data,)).findings == ()  # it runs, and passes
    ctx = replace(ctx, profiles=Profiles(_FailingRunner(people), ctx.profiles.catalog))
    (finding,) = run_checks(ctx, (literal_in_data,)).findings
    assert (finding.code, finding.kind) == ("veto.check_failed", "veto")
    assert "literal_in_data" in finding.message
