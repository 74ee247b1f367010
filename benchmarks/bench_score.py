"""Scoring speed: 10,000 questions x 5 samples whose results are already in memory, with result
sizes drawn from those of the Spider slice (the default rule, assay-1.0, with the default
matching policy; checks that need no database, the question-SQL checks included; agreement;
gate). Also relaxed matching of two 100 x 10 results, against a naive implementation that tries
every column permutation, in the same run; and peak memory while streaming questions."""

from __future__ import annotations

import itertools
import time
import tracemalloc
from collections import Counter
from collections.abc import Iterator

import numpy as np

from assay.agreement import NormalisedResult, agreement, relaxed_match
from assay.bench.datasets import default_spider_root
from assay.checks import CheckContext, run_checks
from assay.gate import GatePolicy, decide
from assay.scoring import DEFAULT_RULE, ScoreInputs, get_rule
from assay.settings import load_settings
from assay.types import Candidate, Result
from benchmarks._common import median, report, timings, write

N_QUESTIONS = 10_000
MATCHING = load_settings({}).matching  # the default rule with the default matching policy
K = 5
FALLBACK_SHAPES = [(1, 1)] * 50 + [(3, 2)] * 20 + [(10, 2)] * 15 + [(40, 3)] * 10 + [(100, 4)] * 5


def spider_shapes() -> list[tuple[int, int]]:
    """(rows, columns) of each gold result in the Spider slice."""
    root = default_spider_root()
    if not (root / "questions.jsonl").exists():
        return FALLBACK_SHAPES
    import json
    import sqlite3

    shapes = []
    for line in (root / "questions.jsonl").read_text().splitlines():
        row = json.loads(line)
        con = sqlite3.connect(root / "database" / row["db_id"] / f"{row['db_id']}.sqlite")
        con.text_factory = lambda b: b.decode("utf-8", "replace")
        try:
            cursor = con.execute(row["gold_sql"])
            rows = cursor.fetchall()
            shapes.append((min(len(rows), 100), len(cursor.description or [])))
        finally:
            con.close()
    return shapes


def questions(
    shapes: list[tuple[int, int]], rng: np.random.Generator, n: int
) -> Iterator[list[Result]]:
    """K results per question: a right result and a wrong one, mixed as samples would be."""
    for _ in range(n):
        n_rows, n_cols = shapes[int(rng.integers(len(shapes)))]
        right = rng.integers(0, 1000, size=(n_rows, n_cols)).tolist()
        wrong = [[v + 1 for v in r] for r in right] if n_rows else [[1] * n_cols]
        cols = tuple(f"c{j}" for j in range(n_cols))
        pattern = rng.integers(0, 2, size=K)
        yield [
            Result(cols, tuple(map(tuple, right if p == 0 else wrong)), max(n_rows, 0))
            for p in pattern
        ]


def score_all(shapes: list[tuple[int, int]], n: int) -> tuple[float, Counter[str]]:
    rule, policy = get_rule(DEFAULT_RULE), GatePolicy()
    actions: Counter[str] = Counter()
    rng = np.random.default_rng(0)
    started = time.perf_counter()
    for results in questions(shapes, rng, n):
        shown = Candidate("SELECT 1", (), None, results[0])
        checked = run_checks(CheckContext("q", shown, "duckdb"))
        agreed = agreement(results, policy=MATCHING)
        scored = rule(ScoreInputs(checked.findings, checked.measures, agreed))
        actions[decide(policy, scored).action] += 1
    return time.perf_counter() - started, actions


def naive_match(a: NormalisedResult, b: NormalisedResult) -> bool:
    if len(a.rows) != len(b.rows):
        return False
    narrow, wide = (a, b) if a.n_cols <= b.n_cols else (b, a)
    target = Counter(narrow.rows)
    return any(
        Counter(tuple(r[i] for i in cols) for r in wide.rows) == target
        for cols in itertools.permutations(range(wide.n_cols), narrow.n_cols)
    )


def wide_pair(rng: np.random.Generator, n_cols: int) -> tuple[NormalisedResult, NormalisedResult]:
    data = rng.integers(0, 50, size=(100, n_cols)).tolist()
    order = rng.permutation(n_cols).tolist()
    a = NormalisedResult.of([tuple(r) for r in data], n_cols)
    b = NormalisedResult.of([tuple(r[j] for j in order) for r in data[::-1]], n_cols)
    return a, b


def run() -> dict[str, object]:
    shapes = spider_shapes()
    elapsed, actions = score_all(shapes, N_QUESTIONS)
    # Memory, traced on separate runs (tracing slows Python down): the peak must not grow
    # with the number of questions, since each is scored and dropped.
    peaks = {}
    for n in (500, 2_000):
        tracemalloc.start()
        score_all(shapes, n)
        peaks[n] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    peak = peaks[2_000]
    rng = np.random.default_rng(1)
    fast: list[float] = []
    for _ in range(200):
        a, b = wide_pair(rng, 10)
        fast += timings(lambda a=a, b=b: relaxed_match(a, b), 1)
    assert relaxed_match(*wide_pair(rng, 10))
    # The naive way tries every permutation: 10! is 3.6 million, so compare at 7 columns
    # (5,040 permutations) and report the ratio there.
    a7, b7 = wide_pair(rng, 7)
    naive7 = median(timings(lambda: naive_match(a7, b7), 3))
    fast7 = median(timings(lambda: relaxed_match(a7, b7), 50))
    record = {
        "n_questions": N_QUESTIONS,
        "k": K,
        "shapes_from": "spider-slice" if shapes is not FALLBACK_SHAPES else "fallback",
        "score_all_s": round(elapsed, 3),
        "per_question_ms": round(elapsed / N_QUESTIONS * 1000, 4),
        "actions": dict(actions),
        "peak_traced_mib": round(peak / 2**20, 2),
        "peak_traced_mib_500_vs_2000": [round(peaks[500] / 2**20, 2), round(peak / 2**20, 2)],
        "relaxed_100x10_median_ms": round(median(fast), 4),
        "relaxed_100x7_median_ms": round(fast7, 4),
        "naive_100x7_median_ms": round(naive7, 2),
        "naive_over_relaxed_at_7_columns": round(naive7 / fast7, 1),
    }
    write("score", record)
    report(
        "score",
        [
            ("10,000 questions x 5 samples", f"{elapsed:.2f} s", "< 5 s", elapsed < 5),
            (
                "relaxed match 100 x 10 (median)",
                f"{record['relaxed_100x10_median_ms']} ms",
                "< 1 ms",
                median(fast) < 1,
            ),
            (
                "naive permutations / relaxed, 100 x 7",
                f"{record['naive_over_relaxed_at_7_columns']}x",
                "reported",
                True,
            ),
            (
                "peak traced memory while streaming",
                f"{record['peak_traced_mib']} MiB",
                "proportional to one question",
                True,
            ),
        ],
    )
    return record
