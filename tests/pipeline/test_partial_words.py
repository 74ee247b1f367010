"""A grouped answer whose first or last bucket is cut by the period says so (found by an
outside tryout: "costs by month for the last 3 months" wrote August 7-31 as "2024-08")."""

from __future__ import annotations

import datetime as dt

import pytest

from assay.pipeline._agent import partial_words
from assay.semantic import Lexicon, SemanticLayer, read
from assay.semantic._model import Metric

LAYER = SemanticLayer(
    name="daily",
    metrics=(Metric("cogs", "daily cogs", ("costs",), "daily", "SUM(daily.cogs)", "daily.day"),),
    tables=("daily",),
    coverage=(dt.date(2022, 11, 9), dt.date(2024, 11, 7)),
    clock=dt.date(2024, 11, 7),
)


@pytest.mark.parametrize(
    ("question", "said"),
    [
        # one period: each cut bucket is marked at its label by the answer writer
        # (tests/answer/test_answer.py), not said again in the sentence
        ("costs by month for the last 3 months", []),
        ("costs by quarter since March 2024", ["to 2024-11-07"]),
        ("costs by month in 2023", []),
        ("costs by year", ["the first year from 2022-11-09", "the last year is not over"]),
    ],
)
def test_a_cut_bucket_is_named(question: str, said: list[str]) -> None:
    reading = read(question, LAYER, Lexicon(LAYER))
    words = partial_words(reading, LAYER)
    for part in said:
        assert part in words, words
    if not said:
        assert words == ""
