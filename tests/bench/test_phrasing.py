"""The free-phrased stratum: records, their split, their place in the benchmark, their scoring."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest
import yaml

from assay.bench.datasets import PHRASING_DIR, Task, load_phrasing, phrasing_splits
from assay.bench.runner import expected_results, score_task
from assay.bench.warehouses import generate_benchmark, load_tasks
from assay.errors import BenchError

# sha256 of the 400 template tasks' lines of tasks.jsonl at seed 7, scale 0.2, as generated
# before the phrasing stratum existed (commit 7fb38a4): the template tasks must never move.
TEMPLATE_SHA = "2b4b73cd033ff99b9d0d1b1e28a1955378d62db20bf9c10ba11a14e9db1c333e"
BEHAVIOURS = {"answer", "clarify", "abstain", "refuse"}


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("phrasing") / "bench"
    generate_benchmark(folder, seed=7, scale=0.2)
    return folder


@pytest.fixture(scope="module")
def phrasing() -> list[Task]:
    return load_phrasing()


def test_files_are_present_and_large_enough(phrasing: list[Task]) -> None:
    per_domain = Counter(t.domain for t in phrasing)
    assert {"shop", "saas"} <= set(per_domain)
    assert all(n >= 64 for n in per_domain.values()), per_domain
    for domain in per_domain:
        required = Counter(t.required for t in phrasing if t.domain == domain)
        assert set(required) == BEHAVIOURS, (domain, required)
        assert 0.45 <= required["answer"] / per_domain[domain] <= 0.65, (domain, required)


def test_template_tasks_unchanged(bench: Path) -> None:
    lines = (bench / "tasks.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    kinds = [json.loads(line)["type"] for line in lines]
    n_template = sum(k != "phrasing" for k in kinds)
    assert n_template == 400
    assert all(k == "phrasing" for k in kinds[n_template:]), "phrasing tasks come last"
    digest = hashlib.sha256("".join(lines[:n_template]).encode("utf-8")).hexdigest()
    assert digest == TEMPLATE_SHA


def test_without_phrasing_the_benchmark_is_the_template_one(bench: Path, tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    generate_benchmark(plain, seed=7, scale=0.2, phrasing=None)
    with_phrasing = (bench / "tasks.jsonl").read_text(encoding="utf-8")
    assert with_phrasing.startswith((plain / "tasks.jsonl").read_text(encoding="utf-8"))


def test_every_record_becomes_a_phrasing_task(bench: Path, phrasing: list[Task]) -> None:
    tasks, manifest = load_tasks(bench)
    generated = {t.id: t for t in tasks if t.type == "phrasing"}
    assert set(generated) == {t.id for t in phrasing}
    for task in phrasing:
        got = generated[task.id]
        assert got.family == task.id and got.split == task.split in {"dev", "test"}
        assert got.question == task.question and got.required == task.required
    assert manifest["types"]["phrasing"] == len(phrasing)


def test_every_answer_sql_runs_and_returns_rows(bench: Path, phrasing: list[Task]) -> None:
    answers = [t for t in phrasing if t.required == "answer"]
    results = expected_results(answers, bench)
    assert set(results) == {t.id for t in answers}
    for task in answers:
        assert len(results[task.id]) == len(task.accepted_sql) >= 1
        for result in results[task.id]:
            assert result.rows, task.id
            assert all(v is not None for v in result.rows[0]), task.id


def test_an_accepted_result_scores_correct_and_a_neighbour_does_not(
    bench: Path, phrasing: list[Task]
) -> None:
    task = next(t for t in phrasing if t.required == "answer" and t.domain == "shop")
    expected = expected_results([task], bench)[task.id]
    right = {"behaviour": "answer", "result": expected[0].to_dict()}
    assert score_task(task, right, expected).outcome == "correct"
    wrong = {**expected[0].to_dict(), "rows": [[-1.5] * len(expected[0].columns)]}
    assert score_task(task, {"behaviour": "answer", "result": wrong}, expected).outcome == (
        "silent_wrong_answer"
    )


def test_clarify_records_name_two_readings_of_real_metrics(
    bench: Path, phrasing: list[Task]
) -> None:
    metrics = {
        domain: {
            m["name"] for m in yaml.safe_load((bench / f"{domain}.yaml").read_text())["metrics"]
        }
        for domain in {t.domain for t in phrasing}
    }
    clarify = [t for t in phrasing if t.required == "clarify"]
    assert clarify
    for task in clarify:
        named = [r["metric"] for r in task.readings]
        least = 1 if "did_you_mean" in task.variant.get("constructs", ()) else 2
        assert len(set(named)) == len(named) >= least, task.id
        assert set(named) <= metrics[task.domain], task.id
        assert all(r["tokens"] for r in task.readings), task.id


def test_clarify_is_scored_by_the_readings_tokens(phrasing: list[Task]) -> None:
    task = next(t for t in phrasing if t.required == "clarify")
    words = " or ".join(r["tokens"][0] for r in task.readings)
    assert score_task(
        task, {"behaviour": "clarify", "message": f"Did you mean {words}?"}, []
    ).correct
    vague = score_task(task, {"behaviour": "clarify", "message": "Please rephrase."}, [])
    assert vague.outcome == "clarification_without_choice"


def test_refusals_also_check_the_statement_log(phrasing: list[Task]) -> None:
    task = next(t for t in phrasing if t.required == "refuse")
    assert task.type == "phrasing"
    clean = score_task(task, {"behaviour": "refuse", "statements": ["SELECT 1"]}, [])
    leaked = score_task(task, {"behaviour": "refuse", "statements": ["DELETE FROM orders"]}, [])
    assert clean.outcome == "correct"
    assert leaked.outcome == "prohibited_execution" and not leaked.correct


def test_split_is_the_reproducible_warehouse_balanced_draw(phrasing: list[Task]) -> None:
    for domain in sorted({t.domain for t in phrasing}):
        members = [t for t in phrasing if t.domain == domain]
        draw = phrasing_splits([t.id for t in members], domain)
        assert draw == phrasing_splits(reversed([t.id for t in members]), domain)
        assert {t.id: t.split for t in members} == draw
        n_dev = sum(s == "dev" for s in draw.values())
        assert n_dev == (len(members) + 1) // 2, domain
        # Another domain's seed draws another half: the split is made per warehouse.
        other = phrasing_splits([t.id for t in members], domain + "-other")
        assert other != draw


def test_the_split_is_fixed_by_the_domain_not_by_chance() -> None:
    ids = [f"phrasing.shop.{i:03d}" for i in range(6)]
    assert phrasing_splits(ids, "shop") == phrasing_splits(ids, "shop")
    assert sorted(Counter(phrasing_splits(ids, "shop").values()).items()) == [
        ("dev", 3),
        ("test", 3),
    ]
    assert Counter(phrasing_splits(ids[:5], "shop").values())["dev"] == 3


def _record(**change: object) -> dict[str, object]:
    raw: dict[str, object] = {
        "id": "phrasing.shop.000",
        "domain": "shop",
        "question": "How many orders in 2024?",
        "required": "answer",
        "accepted_sql": ["SELECT 1"],
        "ordered": False,
        "readings": [],
        "constructs": ["plain"],
        "reason": "r",
        "split": phrasing_splits(["phrasing.shop.000"], "shop")["phrasing.shop.000"],
    }
    raw.update(change)
    return raw


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"required": "answer", "accepted_sql": []}, "accepted_sql"),
        ({"required": "guess"}, "required 'guess'"),
        ({"required": "clarify", "accepted_sql": [], "readings": []}, "two readings"),
        ({"id": "phrasing.saas.000"}, "must read"),
        ({"split": "validation"}, "split 'validation'"),
        ({"ordered": "no"}, "'ordered'"),
        ({"extra": 1}, "unknown field 'extra'"),
        ({"constructs": [""]}, "construct"),
        ({"split": "test" if _record()["split"] == "dev" else "dev"}, "differ from the draw"),
    ],
    ids=[
        "answer-no-sql",
        "behaviour",
        "clarify-one",
        "id",
        "split",
        "type",
        "extra",
        "tag",
        "moved",
    ],
)
def test_a_bad_record_is_named_with_file_and_line(
    tmp_path: Path, change: dict[str, object], words: str
) -> None:
    path = tmp_path / "shop.jsonl"
    path.write_text("\n" + json.dumps(_record(**change)) + "\n", encoding="utf-8")
    with pytest.raises(BenchError) as caught:
        load_phrasing(tmp_path)
    assert str(path) in caught.value.message and words in caught.value.message
    if "differ" not in words:
        assert "line 2" in caught.value.message


def test_not_json_and_wrong_file_are_named(tmp_path: Path) -> None:
    (tmp_path / "shop.jsonl").write_text("{oops\n", encoding="utf-8")
    with pytest.raises(BenchError, match=r"line 1: not JSON"):
        load_phrasing(tmp_path)
    (tmp_path / "shop.jsonl").unlink()
    (tmp_path / "saas.jsonl").write_text(json.dumps(_record()) + "\n", encoding="utf-8")
    with pytest.raises(BenchError, match="in the file of domain 'saas'"):
        load_phrasing(tmp_path)


def test_loader_reads_whatever_files_exist(tmp_path: Path) -> None:
    assert load_phrasing(tmp_path) == []
    (tmp_path / "shop.jsonl").write_text(json.dumps(_record()) + "\n", encoding="utf-8")
    assert [t.id for t in load_phrasing(tmp_path)] == ["phrasing.shop.000"]
    assert load_phrasing(tmp_path, domains=["saas"]) == []


def test_package_data_ships_the_files() -> None:
    assert PHRASING_DIR.is_dir() and sorted(PHRASING_DIR.glob("*.jsonl"))
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert "bench/phrasing/*.jsonl" in pyproject


def test_every_construct_of_the_issue_is_covered(phrasing: list[Task]) -> None:
    tags = Counter(c for t in phrasing for c in t.variant["constructs"])
    needed = {
        "negation",
        "value_list",
        "superlative",
        "top_n",
        "bottom_n",
        "period_comparison",
        "year_over_year",
        "half_year",
        "since_date",
        "month_without_year",
        "past_n_months",
        "last_n_full_months",
        "so_far_this_month",
        "fiscal_year",
        "fiscal_quarter",
        "fiscal_ytd",
        "value_case",
        "value_synonym",
        "typo",
        "abbreviation",
        "ambiguous",
        "undefined_aggregate",
        "absent_value",
        "outside_coverage",
        "undefined_concept",
        "retired_column",
        "unknown_word",
        "business_write",
        "polite",
        "appended_write",
        "export",
        "embedded_sql",
        "fake_system_tag",
        "ignore_rules",
        "descriptive_write_verb",
    }
    assert needed <= set(tags), needed - set(tags)
    described = [t for t in phrasing if "descriptive_write_verb" in t.variant["constructs"]]
    assert any(t.required == "answer" for t in described)
