"""Reader for the Spark corpora in this folder (the format of tests/fixtures/guard, with the
expected refusal code on the expect line: ``-- expect: reject guard.file_access``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent


@dataclass(frozen=True)
class SparkCase:
    title: str
    expect: str
    code: str
    attempts: str
    sql: str


def load_spark(name: str) -> list[SparkCase]:
    text = (HERE / name).read_text(encoding="utf-8")
    cases = []
    for block in re.split(r"^-- case: ", text, flags=re.M)[1:]:
        title, _, rest = block.partition("\n")
        headers: dict[str, str] = {}
        body: list[str] = []
        for line in rest.split("\n"):
            match = re.match(r"^-- (expect|attempts): (.*)$", line)
            if match and not body:
                headers[match.group(1)] = match.group(2).strip()
            else:
                body.append(line)
        expect, _, code = headers["expect"].partition(" ")
        cases.append(
            SparkCase(title.strip(), expect, code, headers.get("attempts", ""), "\n".join(body))
        )
    return cases
