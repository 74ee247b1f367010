"""``assay bench generate | run | score | tpc``: the warehouse reliability benchmark, and the
TPC warehouses built offline to try Assay on a schema nobody prepared."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from assay.bench.datasets import TPC_BENCHMARKS, build_tpc
from assay.bench.runner import (
    RunContext,
    compare_runs,
    confidence_rows,
    load_run,
    make_system,
    run_benchmark,
    score_run,
)
from assay.bench.warehouses import generate_benchmark, load_tasks
from assay.cli._main import handle_errors, resolve_settings, settings_options
from assay.errors import InputError
from assay.scoring import fit_confidence

__all__ = ["bench_group"]


TASKS_OPTION = click.option(
    "--tasks",
    "folder",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    required=True,
    help="The folder 'assay bench generate' wrote.",
)


@click.group("bench")
def bench_group() -> None:
    """The warehouse reliability benchmark: generate it, run a system, score the run."""


@bench_group.command("generate")
@click.option("--seed", type=int, default=0, show_default=True, help="Generation seed.")
@click.option(
    "--scale",
    type=float,
    default=1.0,
    show_default=True,
    help="Rows scale (1 is tens of thousands of rows per domain).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Folder for the warehouses, tasks.jsonl and manifest.json.",
)
@handle_errors
def bench_generate(seed: int, scale: float, out: Path) -> None:
    """Generate every domain's warehouse and semantic layer, and the tasks, from a seed."""
    if scale <= 0:
        raise InputError(f"--scale must be positive, got {scale}.", hint="Use e.g. 1 or 0.2.")
    manifest = generate_benchmark(out, seed, scale)
    click.echo(
        f"wrote {len(manifest['files']) // 2} warehouses and "
        f"{sum(manifest['splits'].values())} tasks {manifest['splits']} to {out} "
        f"(task set {manifest['task_set_hash']})"
    )


@bench_group.command("tpc")
@click.argument("name", type=click.Choice(sorted(TPC_BENCHMARKS)))
@click.option(
    "--sf",
    "scale_factor",
    type=float,
    default=0.01,
    show_default=True,
    help="TPC scale factor (0.01 is tens of thousands of rows; 1 is about 1 GB).",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="The DuckDB file to write (must not exist).",
)
@handle_errors
def bench_tpc(name: str, scale_factor: float, out: Path) -> None:
    """Build the TPC-H or TPC-DS warehouse into a DuckDB file, offline (DuckDB's generator
    from the installed duckdb-extension package; nothing is downloaded)."""
    if scale_factor <= 0:
        raise InputError(f"--sf must be positive, got {scale_factor}.", hint="Use e.g. 0.01 or 1.")
    if out.exists():
        raise InputError(
            f"{out} already exists; it is left as it is.",
            hint="Remove it or name another file with --out.",
        )
    build_tpc(name, scale_factor, out)
    import duckdb

    con = duckdb.connect(str(out), read_only=True)
    try:
        tables = con.execute(
            "SELECT table_name, estimated_size FROM duckdb_tables() ORDER BY table_name"
        ).fetchall()
    finally:
        con.close()
    rows = sum(int(size or 0) for _, size in tables)
    click.echo(f"wrote {name} sf {scale_factor:g} to {out}: {len(tables)} tables, {rows:,} rows")
    click.echo(f"next: assay semantic init --db {out} --out {out.with_suffix('.yaml')}")


@bench_group.command("run")
@TASKS_OPTION
@click.option(
    "--split",
    type=click.Choice(["dev", "validation", "test", "all"]),
    default="dev",
    show_default=True,
    help="Which split to run.",
)
@click.option(
    "--system",
    "system_name",
    required=True,
    help="always_abstain, answer_first_reading, assay, or samples:PATH.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="Run file (JSONL), written as it goes.",
)
@click.option("--resume", is_flag=True, help="Skip tasks already in --out.")
@click.option(
    "--limit-s",
    type=float,
    default=60.0,
    show_default=True,
    help="Seconds a system may take on one task before it is a failure.",
)
@settings_options("time_limit_ms")
@handle_errors
def bench_run(
    folder: Path,
    split: str,
    system_name: str,
    out: Path,
    resume: bool,
    limit_s: float,
    **kwargs: Any,
) -> None:
    """Run a system over a split, one record per task; failures are recorded, never hidden."""
    settings = resolve_settings(kwargs)
    tasks, manifest = load_tasks(folder)
    chosen = [t for t in tasks if split == "all" or t.split == split]
    system = make_system(system_name)
    ctx = RunContext(folder, settings)
    bar: Any = click.progressbar(
        length=len(chosen), label=f"running {system.name}", file=sys.stderr
    )
    try:
        with bar:
            counts = run_benchmark(
                chosen,
                system,
                out,
                ctx,
                resume=resume,
                limit_s=limit_s,
                task_set_hash=manifest["task_set_hash"],
                progress=lambda _: bar.update(1),
            )
    finally:
        ctx.close()
    if counts.get("dropped"):
        click.echo(
            f"dropped {counts['dropped']} records from {out} of tasks not in split {split!r} "
            "(resumed with another split or task set)",
            err=True,
        )
    click.echo(
        f"ran {counts['run']} tasks ({counts['skipped']} skipped, "
        f"{counts['failures']} system failures) into {out}"
    )


def _print(report: dict[str, Any]) -> None:
    m = report["metrics"]
    ci = report["intervals"]["business_truth_rate"]

    def num(x: Any) -> str:
        return "n/a" if x is None else f"{x:.3f}"

    click.echo(f"system {report['system']} on {report['n_tasks']} tasks")
    click.echo(
        f"  Business Truth Rate  {num(m['business_truth_rate'])} "
        f"[{num(ci['tasks']['low'])}, {num(ci['tasks']['high'])}] tasks, "
        f"[{num(ci['families']['low'])}, {num(ci['families']['high'])}] families"
    )
    click.echo(f"  False Success Rate   {num(m['false_success_rate'])}")
    click.echo(f"  coverage             {num(m['coverage'])}")
    click.echo(f"  answer accuracy      {num(m['answer_accuracy'])}")
    click.echo(f"  cost per correct     {num(m['cost_per_correct'])} s")
    click.echo(f"  system failures      {m['failures']}")
    click.echo("  per stratum (Table 4):")
    for kind, row in report["strata"].items():
        click.echo(
            f"    {kind:14} {row['correct']:>4}/{row['n']:<4} {num(row['business_truth_rate'])}"
        )
    click.echo("  outcomes (Figure 4):")
    for label, n in report["outcomes"].items():
        click.echo(f"    {label:30} {n}")


@bench_group.command("score")
@click.argument("run", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@TASKS_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the whole report as JSON.")
@handle_errors
def bench_score(run: Path, folder: Path, as_json: bool) -> None:
    """Score a run: Business Truth Rate, False Success Rate, coverage, accuracy, strata."""
    tasks, manifest = load_tasks(folder)
    report = score_run(load_run(run), tasks, manifest, folder)
    if as_json:
        click.echo(json.dumps(report, sort_keys=True))
    else:
        _print(report)


@bench_group.command("compare")
@click.argument("baseline", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("other", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@TASKS_OPTION
@handle_errors
def bench_compare(baseline: Path, other: Path, folder: Path) -> None:
    """Paired difference of two runs on the same tasks (other minus baseline), with task and
    template-family intervals and McNemar's exact test."""
    tasks, manifest = load_tasks(folder)
    a = score_run(load_run(baseline), tasks, manifest, folder)
    b = score_run(load_run(other), tasks, manifest, folder)
    click.echo(json.dumps(compare_runs(a, b, tasks), indent=2, sort_keys=True))


@bench_group.command("confidence")
@TASKS_OPTION
@click.option(
    "--train",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    required=True,
    help="An 'assay' run on the dev split.",
)
@click.option(
    "--validation",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="An 'assay' run on the validation split (chooses the threshold).",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="Where to save the fitted model (JSON).",
)
@handle_errors
def bench_confidence(folder: Path, train: Path, validation: Path | None, out: Path) -> None:
    """Fit the logistic confidence model (join count, SQL length, repairs, verification
    issues) on a dev run, threshold on validation, leave-one-family-out estimate."""
    tasks, _ = load_tasks(folder)
    rows = confidence_rows(load_run(train), tasks, folder)
    held = confidence_rows(load_run(validation), tasks, folder) if validation else []
    model = fit_confidence(rows, held)
    model.save(out)
    click.echo(
        f"fitted on {model.n_train} answers; threshold {model.threshold:.3f}; "
        f"leave-one-family-out AUROC {model.lofo_auroc}"
    )
