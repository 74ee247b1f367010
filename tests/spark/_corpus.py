"""Reader for the Spark corpora in this folder (the format of tests/fixtures/guard, with the
expected refusal code on the expect line: ``-- expect: reject guard.file_access``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tests.fixtures.corpus import read_blocks

HERE = Path(__file__).parent


@dataclass(frozen=True)
class SparkCase:
    title: str
    expect: str
    code: str
    attempts: str
    sql: str


def load_spark(name: str) -> list[SparkCase]:
    cases = []
    for title, headers, body in read_blocks(HERE / name, ("expect", "attempts")):
        expect, _, code = headers["expect"].partition(" ")
        cases.append(SparkCase(title, expect, code, headers.get("attempts", ""), body))
    return cases
