"""``scripts/eval_spider_drafted.py``'s classifier and split on hand-made verdicts: an equal
result, a different one, an answer with an extra label column, a warned one, a routed one and
non-answers, each against a fixed gold result."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from assay.types import Candidate, Result, Verdict

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "eval_spider_drafted.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("eval_spider_drafted", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve the module's annotations through it
    spec.loader.exec_module(module)
    return module


script = _load()

GOLD = Result(("Country", "count(*)"), (("France", 4), ("Netherlands", 1), ("US", 1)), 3)


def _verdict(result: Result | None, **fields: Any) -> Verdict:
    base: dict[str, Any] = {
        "id": "q",
        "behaviour": "answer",
        "action": "show",
        "score": 0.9,
        "rule": "agreement_first",
        "rule_version": "2.1",
        "policy": "thresholds",
        "policy_version": "1",
        "candidate": Candidate("SELECT 1", result=result),
    }
    return Verdict(**(base | fields))


CASES = [
    # same rows, other column names and order, other row order
    (
        _verdict(Result(("n", "c"), ((1, "US"), (4, "France"), (1.0, "Netherlands")), 3)),
        "RIGHT_SHOWN",
        True,
    ),
    # one count differs
    (
        _verdict(Result(("c", "n"), (("France", 3), ("Netherlands", 1), ("US", 1)), 3)),
        "WRONG_SHOWN",
        False,
    ),
    # an extra label column is allowed
    (
        _verdict(
            Result(
                ("label", "c", "n"),
                (("x", "France", 4), ("x", "Netherlands", 1), ("x", "US", 1)),
                3,
            )
        ),
        "RIGHT_SHOWN",
        True,
    ),
    # a missing column is not
    (_verdict(Result(("n",), ((4,), (1,), (1,)), 3)), "WRONG_SHOWN", False),
    # a row too many
    (
        _verdict(Result(("c", "n"), (*GOLD.rows, ("Spain", 1)), 4), action="warn"),
        "WARNED_WRONG",
        False,
    ),
    (_verdict(GOLD, action="warn"), "WARNED_RIGHT", True),
    (_verdict(GOLD, action="warn", route="confirm_first"), "CONFIRM_FIRST", True),
    # cut at the row cap: never equivalent
    (
        _verdict(Result(GOLD.columns, GOLD.rows, None, truncated=True)),
        "WRONG_SHOWN",
        False,
    ),
    (
        _verdict(None, behaviour="clarify", action="withhold", reasons=("behaviour.ambiguous",)),
        "NOT_ANSWERED",
        None,
    ),
    (_verdict(GOLD, action="withhold", reasons=("veto.fan_out",)), "NOT_ANSWERED", None),
    (
        _verdict(None, action="withhold", failure={"code": "execution.timeout", "message": "x"}),
        "SYSTEM_FAILURE",
        None,
    ),
]
IDS = [
    "equal",
    "different",
    "extra-label",
    "missing-column",
    "extra-row-warned",
    "warned-equal",
    "confirm-first",
    "truncated",
    "clarify",
    "withheld",
    "failure",
]


@pytest.mark.parametrize(("verdict", "label", "same"), CASES, ids=IDS)
def test_classify(verdict: Verdict, label: str, same: bool | None) -> None:
    outcome = script.classify(verdict, GOLD, ordered=False)
    assert (outcome.label, outcome.equivalent) == (label, same)


def test_non_answer_keeps_its_first_reason() -> None:
    verdict = _verdict(None, behaviour="abstain", action="withhold", reasons=("a.b", "c.d"))
    assert script.classify(verdict, GOLD, ordered=False).first_reason == "a.b"


def test_order_matters_only_when_gold_orders() -> None:
    reversed_rows = Result(GOLD.columns, tuple(reversed(GOLD.rows)), 3)
    assert script.equivalent(GOLD, reversed_rows, ordered=False)
    assert not script.equivalent(GOLD, reversed_rows, ordered=True)


def test_split_is_the_hash_parity_of_the_id() -> None:
    ids = [f"spider-dev-{i}" for i in range(6)]
    assert [script.split_of(i) for i in ids] == ["dev", "dev", "heldout", "dev", "dev", "heldout"]


@pytest.mark.parametrize(
    ("sql", "need"),
    [
        ("SELECT name FROM stadium EXCEPT SELECT name FROM concert", "set operation"),
        ("SELECT count(*) FROM t WHERE a = (SELECT max(a) FROM t)", "nested query"),
        ("SELECT avg(weight), pettype FROM pets GROUP BY pettype", "average, minimum or maximum"),
        ("SELECT count(*) FROM cars_data WHERE year = 1980", "integer year column as a period"),
        ("SELECT count(*) FROM singer", "plain count or total"),
    ],
    ids=["set-op", "nested", "avg", "year", "plain"],
)
def test_gold_needs_names_the_most_demanding_construct(sql: str, need: str) -> None:
    assert script.gold_needs(sql).startswith(need)


def test_summary_counts_each_class_per_database() -> None:
    records = [
        {"db": "pets_1", "class": "RIGHT_SHOWN"},
        {"db": "pets_1", "class": "NOT_ANSWERED"},
        {"db": "car_1", "class": "NOT_ANSWERED"},
    ]
    rows = {line.split()[0]: line.split()[1:] for line in script.summary(records).splitlines()}
    # columns: car_1, concert_singer, pets_1, total
    assert rows["NOT_ANSWERED"] == ["1", "0", "1", "2"]
    assert rows["RIGHT_SHOWN"] == ["0", "0", "1", "1"]
    assert rows["questions"] == ["1", "0", "2", "3"]


class _Rows:
    """A connector that returns fixed rows, to run ``FAULTY_GOLD``'s corrected SQL against."""

    def __init__(self, rows: tuple[tuple[Any, ...], ...]) -> None:
        self.rows = rows

    def execute(self, sql: str, **_: Any) -> Result:
        return Result(("n",), self.rows, len(self.rows))


class _Settings:
    time_limit_ms = 1000


def test_faulty_gold_is_scored_against_its_corrected_rows() -> None:
    """draft 23: Spider's gold for "how many countries have more than 2 car makers" returns
    one count per country; the shown 4 was counted as shown wrong."""
    spider_gold = Result(("count(*)",), ((4,), (4,), (3,), (5,)), 4)
    fix = script.FAULTY_GOLD["spider-dev-161"]
    gold = script._corrected("spider-dev-161", spider_gold, _Rows(fix.rows), _Settings())
    shown = _verdict(Result(("value",), ((4,),), 1))
    assert script.classify(shown, gold, ordered=False).label == "RIGHT_SHOWN"
    assert script.classify(shown, spider_gold, ordered=False).label == "WRONG_SHOWN"
    assert script._corrected("spider-dev-0", spider_gold, _Rows(()), _Settings()) is spider_gold


def test_stale_faulty_gold_stops_the_run() -> None:
    with pytest.raises(SystemExit, match="FAULTY_GOLD spider-dev-162"):
        script._corrected("spider-dev-162", None, _Rows(((5,),)), _Settings())


def test_summary_reports_corrected_gold_apart() -> None:
    records = [
        {
            "db": "car_1",
            "class": "RIGHT_SHOWN",
            "id": "spider-dev-161",
            "gold_corrected": "why",
            "class_against_spider_gold": "WRONG_SHOWN",
        },
    ]
    text = script.summary(records)
    assert "spider-dev-161: RIGHT_SHOWN (against Spider's gold: WRONG_SHOWN); why" in text
