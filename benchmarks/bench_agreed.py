"""Agreed answers: K = 5 samples that carry the same SQL (a model that agrees with itself),
scored by ``assay score`` (assay-1.0).

Agreement cannot tell these apart: every record's agreement is 1. Only the deterministic
question-vs-SQL checks and the guard can withhold a wrong one, so these sets measure them, and
what they cost right answers.

Eleven sets, each written by a helper who read none of Assay's code, checks or tests; each
record's label comes from running its SQL against the helper's own gold SQL (``gold.jsonl``,
with why each wrong one is wrong):

- ``agreed14`` (73 records: 36 right, 37 wrong) on the Spider slice's car_1, concert_singer and
  pets_1. Scored once held out against the frozen bundle ``assay-1.0-r7``; checks were then
  built from the kinds of wrong answers it showed, so its later numbers are TUNED ON.
- ``agreed15`` (66 records: 33 right, 33 wrong) on TPC-H sf 0.01 (built here, as the tests
  build it: ``{tpch}`` in its samples) and the same three Spider databases. Scored once held
  out against ``assay-1.0-r9``; its first look is kept in ``FIRST_LOOK``.
- ``agreed16`` (70 records: 35 right, 35 wrong; one answer SQL per record) on TPC-DS sf 0.01
  (50, ``{tpcds}``) and TPC-H sf 0.01 (20): schemas no check was built on. Its author kept
  each wrong answer's kind of mistake in ``meta.jsonl``. Its first look was taken unplanned,
  before a bundle was frozen for it; its second against ``assay-1.0-r14``; one change was made
  with that number in view, so it is TUNED ON since (both looks in ``FIRST_LOOK``; no record of
  it has been read by anyone working on the checks).
- ``agreed17`` (60 records: 30 right, 30 wrong) on three public datasets of the shared semantic
  models, loaded from their CSVs (``{csv:...}``: Snowflake Intelligence's marketing and sales,
  Cortex Analyst's revenue, MetricFlow's tutorial seeds): schemas nothing was built on. Written
  blind while this session's checks were being merged; scored once held out against
  ``assay-1.0-r15`` (``FIRST_LOOK``).

- ``agreed18`` (80 records: 40 right, 40 wrong) on TPC-DS (40), TPC-H (20) and the Spider slice
  (20), written blind while this session's checks were built; its author was asked for the
  phrasings they target (flags and codes in words, "through", grains, joins that inflate a
  count), so it measures them on questions nobody on the team wrote. Held out: scored once,
  against the frozen ``assay-1.0-r26``, beside the code of the session's start (1ebe6b1).
  Scored again in later sessions' benchmark runs, then made a DEVELOPMENT set (session 38, main
  d751cd0: 12/40 wrong shown, 1/40 right withheld): its records were read and checks built
  from them, so it is TUNED ON since.
- ``agreed19`` (60 records: 30 right, 30 wrong) on the same three datasets as agreed17, written
  blind by another helper as a DEVELOPMENT set: checks were built from its records, so it is
  TUNED ON from the start; agreed17 beside it measures what generalises. Its first score, by
  the code before any change made from it (main fe08cd8), is in ``FIRST_LOOK``.
- ``agreed20`` (60 records: 30 right, 30 wrong) on TPC-DS (25), TPC-H (15) and a public
  customer summary from Snowflake's semantic-model-generator (20, ``SMG_DEMO``, loaded from its
  CSV), written blind as a DEVELOPMENT set: its author was asked for extra and dropped
  conditions, neighbouring columns, dates of the wrong event and right answers phrased
  unusually. TUNED ON from the start; its first score (main 75c1177) is in ``FIRST_LOOK``.
- ``agreed21`` (60 records: 30 right, 30 wrong) on TPC-DS (20), TPC-H (15), the same customer
  summary (15) and the Spider slice (10), written blind by another helper while agreed20's
  checks were built. Held out: scored once, against the frozen ``assay-1.0-r29``, beside the
  code of the session's start (75c1177); never read.
- ``agreed22`` (60 records: 30 right, 30 wrong) on TPC-DS (18), TPC-H (12), the three CSV
  datasets of agreed17 (20) and the Spider slice (10), written blind as a DEVELOPMENT set: its
  author was asked for shares and growth over the wrong denominator, "with none" rows an inner
  join drops, rows counted for people or orders, averages of averages, thresholds in WHERE for
  HAVING, top N by the wrong measure and right answers phrased unusually. TUNED ON from the
  start; its first score (main 0294dd7) is in ``FIRST_LOOK``.
- ``agreed23`` (60 records: 30 right, 30 wrong) on the same sources as agreed22, written blind
  by another helper with the same brief while agreed22's checks were built. Held out: scored
  once, against the frozen ``assay-1.0-r32``, beside the code of the session's start (24ca0bd).
  Made a DEVELOPMENT set in session 38 (main d751cd0: 7/30 wrong shown, 3/30 right withheld):
  read and built on, TUNED ON since.

- ``agreed25`` (60 records: 30 right, 30 wrong) on TPC-DS (18), TPC-H (12), four CSV datasets
  (20: Snowflake Intelligence, Cortex Analyst, MetricFlow's seeds, the customer summary) and the
  Spider slice (10), written blind in session 38 while agreed18 and agreed23 were built on, and
  kept outside the repository until its one look. Held out: scored by the code of the session's
  start (d751cd0) and once by its end (e4b4d93, frozen as ``assay-1.0-r37``). Made a
  DEVELOPMENT set in session 39 (main 0e850f6: 11/30 wrong shown, 3/30 right withheld): read
  and built on, TUNED ON since.
- ``agreed26`` (60 records: 30 right, 30 wrong) on TPC-DS (18), TPC-H (12), four CSV datasets
  (20: Snowflake Intelligence, Cortex Analyst, MetricFlow's seeds, the semantic-model-generator
  demo) and the Spider slice (10), written blind in session 39 while agreed25 was built on, and
  kept outside the repository until its one look. Held out: scored by the code of the session's
  start (0e850f6) and once by its end (f184efd, frozen as ``assay-1.0-r40``). Made a
  DEVELOPMENT set in session 40 (main 4b1c73a: 7/30 wrong shown, 6/30 right withheld): read
  and built on, TUNED ON since.
- ``agreed27`` (60 records: 30 right, 30 wrong) on TPC-DS (18), TPC-H (12), four CSV datasets
  (20: Snowflake Intelligence, Cortex Analyst, MetricFlow's seeds, the semantic-model-generator
  demo) and the Spider slice (10), written blind in session 40 while agreed26 was built on, and
  kept outside the repository until its one look. Held out: scored by the code of the session's
  start (effc363) and once by its end (fe3c4b1, frozen as ``assay-1.0-r42``); never read.
- ``agreed28`` (60 records: 30 right, 30 wrong) on TPC-DS (18), TPC-H (12), four CSV datasets
  (20: Snowflake Intelligence, Cortex Analyst, MetricFlow's seeds, the semantic-model-generator
  artifacts) and the Spider slice (10), written blind in session 41 and kept outside the
  repository until its one look. Held out: scored by the code of the session's start (a6a8bd1)
  and once by its end (1d1177a, frozen as ``assay-1.0-r44``); never read.

``python -m benchmarks agreed`` (needs ../shared/data/spider-slice; skipped when absent).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from benchmarks._common import report, write

SET = Path(__file__).parent / "heldout" / "agreed14"  # agreed15 and agreed16 beside it
SLICE = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "spider-slice"
MODELS = SLICE.parent / "semantic-models"

# Each set's one held-out look (the bundle frozen before it), and the same set scored by the
# code before these checks (main 2fad328).
FIRST_LOOK = {
    "agreed14": {
        "r7_held_out": {
            "right": {"show": 34, "withhold": 2},
            "wrong": {"show": 19, "warn": 1, "withhold": 17},
        },
        "before_2fad328": {
            "right": {"show": 34, "withhold": 2},
            "wrong": {"show": 26, "warn": 1, "withhold": 10},
        },
    },
    "agreed15": {
        "r9_held_out": {"right": {"show": 33}, "wrong": {"show": 9, "warn": 1, "withhold": 23}},
        "before_2fad328": {
            "right": {"show": 33},
            "wrong": {"show": 25, "warn": 1, "withhold": 7},
        },
    },
    # Its first look came unplanned, at main 278f3a3 before any bundle was frozen for it (the
    # set was wired into this benchmark and the benchmark run for another reason); only these
    # counts were read, no record. The checks of the session's start (8f3b601) score the same.
    # Its one look, against the frozen assay-1.0-r15; and the same set scored by the checks of
    # the session's start (8f3b601), for comparison only.
    "agreed17": {
        "r15_held_out": {
            "right": {"show": 23, "withhold": 7},
            "wrong": {"show": 15, "warn": 1, "withhold": 14},
        },
        "before_8f3b601": {
            "right": {"show": 18, "withhold": 12},
            "wrong": {"show": 15, "warn": 1, "withhold": 14},
        },
    },
    "agreed16": {
        "first_look_278f3a3_unfrozen": {
            "right": {"show": 23, "withhold": 12},
            "wrong": {"show": 9, "withhold": 26},
        },
        "before_8f3b601": {
            "right": {"show": 23, "withhold": 12},
            "wrong": {"show": 9, "withhold": 26},
        },
        # Its second look, against the frozen assay-1.0-r14 (this session's checks): fewer
        # right withheld, more wrong shown. One change followed, made with this number in view
        # (keys guessed from names are not chained: _consistency._reaches), so its later numbers
        # are TUNED ON.
        "r14_second_look": {
            "right": {"show": 27, "withhold": 8},
            "wrong": {"show": 14, "withhold": 21},
        },
    },
    # Its one look, against the frozen assay-1.0-r26, and the session's start (1ebe6b1).
    "agreed18": {
        "r26_held_out": {
            "right": {"show": 38, "withhold": 2},
            "wrong": {"show": 15, "withhold": 25},
        },
        "before_1ebe6b1": {
            "right": {"show": 37, "withhold": 3},
            "wrong": {"show": 23, "withhold": 17},
        },
    },
    # A development set: its first score, by the code before any change made from it.
    "agreed19": {
        "before_fe08cd8": {
            "right": {"show": 26, "withhold": 4},
            "wrong": {"show": 12, "withhold": 18},
        },
    },
    # A development set: its first score, by the code before any change made from it.
    "agreed20": {
        "before_75c1177": {
            "right": {"show": 18, "withhold": 12},
            "wrong": {"show": 17, "withhold": 13},
        },
    },
    # Its one look, against the frozen assay-1.0-r29, and the session's start (75c1177).
    "agreed21": {
        "r29_held_out": {
            "right": {"show": 27, "withhold": 3},
            "wrong": {"show": 5, "withhold": 25},
        },
        "before_75c1177": {
            "right": {"show": 27, "withhold": 3},
            "wrong": {"show": 7, "withhold": 23},
        },
    },
    # Its one look, against the frozen assay-1.0-r32, and the session's start (24ca0bd).
    "agreed23": {
        "r32_held_out": {
            "right": {"show": 27, "withhold": 3},
            "wrong": {"show": 7, "withhold": 23},
        },
        "before_24ca0bd": {
            "right": {"show": 26, "withhold": 4},
            "wrong": {"show": 15, "withhold": 15},
        },
    },
    # Its one look, by the code frozen as assay-1.0-r37 (e4b4d93), and the session's start
    # (d751cd0): the session's checks, built from agreed18 and agreed23, did not carry over.
    "agreed25": {
        "r37_held_out": {
            "right": {"show": 27, "withhold": 3},
            "wrong": {"show": 11, "withhold": 19},
        },
        "before_d751cd0": {
            "right": {"show": 28, "withhold": 2},
            "wrong": {"show": 11, "withhold": 19},
        },
    },
    # Its one look, by the code frozen as assay-1.0-r40 (f184efd), and the session's start
    # (0e850f6): the session's checks, built from agreed25, did not carry over to it.
    "agreed26": {
        "r40_held_out": {
            "right": {"show": 24, "withhold": 6},
            "wrong": {"show": 7, "withhold": 23},
        },
        "before_0e850f6": {
            "right": {"show": 23, "withhold": 7},
            "wrong": {"show": 7, "withhold": 23},
        },
    },
    # Its one look, by the code frozen as assay-1.0-r42 (fe3c4b1), and the session's start
    # (effc363): the same counts; the session's checks, built from agreed26, did not move it.
    "agreed27": {
        "r42_held_out": {
            "right": {"show": 26, "withhold": 4},
            "wrong": {"show": 3, "withhold": 27},
        },
        "before_effc363": {
            "right": {"show": 26, "withhold": 4},
            "wrong": {"show": 3, "withhold": 27},
        },
    },
    # Its one look, by the code frozen as assay-1.0-r44 (1d1177a), and the session's start
    # (a6a8bd1): the same counts; the session's checks, built from outside testers' findings,
    # did not move it.
    "agreed28": {
        "r44_held_out": {
            "right": {"show": 23, "withhold": 7},
            "wrong": {"show": 10, "withhold": 20},
        },
        "before_a6a8bd1": {
            "right": {"show": 23, "withhold": 7},
            "wrong": {"show": 10, "withhold": 20},
        },
    },
    # A development set: its first score, by the code before any change made from it.
    "agreed22": {
        "before_0294dd7": {
            "right": {"show": 27, "withhold": 3},
            "wrong": {"show": 14, "withhold": 16},
        },
    },
}
# agreed15 and agreed17 stay held out (nothing tuned on them); agreed16 was looked at twice
TUNED_ON = {
    "agreed14": True,
    "agreed15": False,
    "agreed16": True,
    "agreed17": False,
    "agreed18": True,  # a development set since session 38
    "agreed19": True,
    "agreed20": True,
    "agreed21": False,
    "agreed22": True,
    "agreed23": True,  # a development set since session 38
    "agreed25": True,  # a development set since session 39
    "agreed26": True,  # a development set since session 40
    "agreed27": False,
    "agreed28": False,
}


def _score(samples: Path, out: Path) -> list[dict[str, object]]:
    assay = Path(sys.executable).parent / "assay"
    subprocess.run(
        [str(assay), "score", str(samples), "--out", str(out)],
        check=True,
        capture_output=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def _samples(name: str, folder: Path) -> Path:
    """The set's samples, with ``{tpch}`` and ``{tpcds}`` put where TPC-H and TPC-DS sf 0.01
    are built for it."""
    text = (SET.parent / name / "samples.jsonl").read_text(encoding="utf-8")
    for tpc in ("tpch", "tpcds"):
        if "{" + tpc + "}" in text:
            from assay.bench.datasets import build_tpc

            built = build_tpc(tpc, 0.01, folder / f"{tpc}.duckdb")
            text = text.replace("{" + tpc + "}", str(built))
    for n, source in enumerate(sorted(set(re.findall(r"\{csv:([^}]+)\}", text)))):
        built = _from_csv(MODELS / source, folder / f"csv{n}.duckdb")
        text = text.replace("{csv:" + source + "}", str(built))
    out = folder / f"{name}.jsonl"
    out.write_text(text, encoding="utf-8")
    return out


def _from_csv(source: Path, path: Path) -> Path:
    """One DuckDB table per CSV of ``source`` (../shared/data/semantic-models/...), named after
    the file, read as DuckDB reads it (``read_csv_auto``): how agreed17's author built them."""
    import duckdb

    con = duckdb.connect(str(path))
    try:
        for csv in sorted(source.glob("*.csv")):
            literal = str(csv).replace("'", "''")
            con.execute(f"CREATE TABLE \"{csv.stem}\" AS SELECT * FROM read_csv_auto('{literal}')")
    finally:
        con.close()
    return path


def _one(name: str) -> tuple[dict[str, object], list[tuple[str, str, str, bool]]]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        verdicts = _score(_samples(name, folder), folder / "verdicts.jsonl")
    counts = Counter((int(str(v["label"])), str(v["action"])) for v in verdicts)
    right = {a: n for (label, a), n in sorted(counts.items()) if label == 1}
    wrong = {a: n for (label, a), n in sorted(counts.items()) if label == 0}
    n_right, n_wrong = sum(right.values()), sum(wrong.values())
    shown_wrong = sorted(
        str(v["id"]) for v in verdicts if v["label"] == 0 and v["action"] == "show"
    )
    withheld_right = sorted(
        str(v["id"]) for v in verdicts if v["label"] == 1 and v["action"] == "withhold"
    )
    record: dict[str, object] = {
        "records": len(verdicts),
        "right": right,
        "wrong": wrong,
        "wrong_shown": shown_wrong,
        "right_withheld": withheld_right,
        "tuned_on": TUNED_ON[name],
        "first_look": FIRST_LOOK[name],
    }
    said = "TUNED ON" if TUNED_ON[name] else "held out"
    rows = [
        (f"{name} ({said}): wrong shown", f"{len(shown_wrong)}/{n_wrong}", "reported", True),
        (f"{name} ({said}): right withheld", f"{len(withheld_right)}/{n_right}", "reported", True),
        (f"{name} ({said}): right shown", f"{right.get('show', 0)}/{n_right}", "reported", True),
    ]
    return record, rows


def run() -> dict[str, object]:
    if not SLICE.exists():
        print("\n== agreed: skipped (../shared/data/spider-slice is absent)")
        return {}
    record: dict[str, object] = {}
    rows: list[tuple[str, str, str, bool]] = []
    for name in TUNED_ON:
        record[name], more = _one(name)
        rows += more
    write("agreed", record)
    report(
        "agreed (first looks: agreed14 wrong shown 19/37 under r7, agreed15 9/33 under r9, "
        "agreed16 9/35 with 12/35 right withheld at 278f3a3, agreed17 15/30 with 7/30 under r15, "
        "agreed18 15/40 with 2/40 under r26, agreed19 (development) 12/30 with 4/30 at fe08cd8, "
        "agreed20 (development) 17/30 with 12/30 at 75c1177, "
        "agreed21 5/30 with 3/30 under r29, 7/30 with 3/30 at 75c1177, "
        "agreed22 (development) 14/30 with 3/30 at 0294dd7, "
        "agreed23 7/30 with 3/30 under r32, 15/30 with 4/30 at 24ca0bd, "
        "agreed25 11/30 with 3/30 under r37, 11/30 with 2/30 at d751cd0, "
        "agreed26 7/30 with 6/30 under r40, 7/30 with 7/30 at 0e850f6, "
        "agreed27 3/30 with 4/30 under r42, 3/30 with 4/30 at effc363, "
        "agreed28 10/30 with 7/30 under r44, 10/30 with 7/30 at a6a8bd1)",
        rows,
    )
    return record
