"""rank21: a cut on a rank read wherever the query keeps it, not only in its outer SELECT.

EHRSQL's gold keeps "the top four diagnoses" as a DENSE_RANK cut in a subquery whose rows feed
an IN (388 of its 5,605 gold queries drew ``ranking_mismatch``: "the LIMIT is None"), reads
"the lowest 6-month survival rate" as no top N, and keeps each patient's first diagnosis with
``HAVING MIN(charttime) = charttime`` (40 read as "the highest but the SQL takes MIN").
"""

from __future__ import annotations

import pytest

from assay.checks import CheckContext
from assay.checks._consistency import ranking_fit
from assay.types import Candidate

_FED_IN = (
    "SELECT d.long_title FROM d_icd_diagnoses AS d WHERE d.icd_code IN ("
    "SELECT T2.icd_code FROM (SELECT T1.icd_code, DENSE_RANK() OVER (ORDER BY COUNT(*) DESC) "
    "AS C1 FROM diagnoses_icd AS T1 GROUP BY T1.icd_code) AS T2 WHERE T2.C1 <= {n})"
)

# EHRSQL-shaped gold: survival (C1 = 0 when the patient died within the span) ranked ascending,
# each patient's first diagnosis picked by HAVING MIN(charttime) = charttime.
_MORTALITY = (
    "SELECT d.long_title FROM d_icd_diagnoses AS d WHERE d.icd_code IN ("
    "SELECT T4.icd_code FROM (SELECT T3.icd_code, DENSE_RANK() OVER (ORDER BY T3.C2 ASC) AS C3 "
    "FROM (SELECT T2.icd_code, AVG(C1) AS C2 FROM (SELECT T1.icd_code, (CASE WHEN "
    "strftime('%J', p.dod) - strftime('%J', T1.charttime) < 1 * 365 / 2 THEN 0 ELSE 1 END) AS C1 "
    "FROM (SELECT a.subject_id, di.icd_code, di.charttime FROM diagnoses_icd AS di "
    "JOIN admissions AS a ON di.hadm_id = a.hadm_id GROUP BY a.subject_id, di.icd_code "
    "HAVING MIN(di.charttime) = di.charttime) AS T1 JOIN patients AS p "
    "ON T1.subject_id = p.subject_id) AS T2 GROUP BY T2.icd_code) AS T3) AS T4 WHERE T4.C3 <= {n})"
)


def _fired(question: str, sql: str) -> list[str]:
    ctx = CheckContext(question, Candidate(sql), "sqlite")
    return [f.message for f in ranking_fit(ctx).findings]


@pytest.mark.parametrize(("n", "fired"), [(4, False), (5, True)], ids=["right", "wrong"])
def test_rank_cut_fed_to_in_is_top_n(n: int, fired: bool) -> None:
    """The top four kept by a cut that feeds an IN is shown; a cut on five is still caught."""
    found = _fired("What are the top four most frequent diagnoses?", _FED_IN.format(n=n))
    assert bool(found) is fired, found


def test_limit_outside_still_read() -> None:
    """An outer LIMIT is the query's own cut: a top five LIMITed to 3 still fires."""
    sql = "SELECT c FROM t GROUP BY c ORDER BY COUNT(*) DESC LIMIT 3"
    found = _fired("What are the top five most frequent categories?", sql)
    assert found == [
        "Ranking disagrees with the question: the question asks for the top 5 but the LIMIT is 3."
    ]


@pytest.mark.parametrize(
    ("question", "n"),
    [
        ("Could you retrieve the top four diagnoses with the highest 6-month mortality rate?", 4),
        ("What are the three diagnoses with the lowest 6-month survival rate?", 3),
    ],
    ids=["highest-mortality", "lowest-6-month"],
)
def test_ehrsql_mortality_gold_shown(question: str, n: int) -> None:
    """EHRSQL's gold on mortality rates draws no ranking finding."""
    assert _fired(question, _MORTALITY.format(n=n)) == []


def test_min_taken_as_the_answer_still_fires() -> None:
    """A MIN that is the answer (not a HAVING picking each group's first row) still fires."""
    sql = "SELECT MIN(price) FROM products"
    found = _fired("What is the highest price of any product?", sql)
    assert found == [
        "Ranking disagrees with the question: the question asks for the highest but the SQL "
        "takes MIN."
    ]
