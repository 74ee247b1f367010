"""``assay monitor``: import runs, train a trajectory monitor, evaluate it on held-out runs."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import click

from assay.cli._main import echo_json, handle_errors
from assay.errors import InputError
from assay.monitor import (
    HEAD_C_CANDIDATES,
    Run,
    RunReject,
    View,
    evaluate,
    import_ehrsql,
    import_intercode,
    load_monitor,
    load_schemas,
    read_runs,
    render_html,
    save_monitor,
    select_view_and_c,
    train_monitor,
    write_jsonl,
)

__all__ = ["monitor_group"]

_PATH = click.Path(exists=True, dir_okay=False, path_type=Path)


@click.group("monitor")
def monitor_group() -> None:
    """The trajectory monitor: refuse early, stop doomed agent runs, withhold at delivery."""


@monitor_group.group("import")
def import_group() -> None:
    """Turn third-party trajectories or questions into run records (docs/trajectories.md)."""


def _write_import(out: Path, runs: list[Run], rejects: list[RunReject]) -> None:
    n = write_jsonl(out, (r.to_dict() for r in runs))
    rejects_path = out.with_name(out.name + ".rejects.jsonl")
    write_jsonl(rejects_path, (r.to_dict() for r in rejects))
    echo_json(
        {"runs": n, "rejects": len(rejects), "out": str(out), "rejects_out": str(rejects_path)}
    )


@import_group.command("intercode")
@click.argument("trajectories", nargs=-1, required=True, type=_PATH)
@click.option("--tasks", required=True, type=_PATH, help="InterCode's tasks.jsonl.")
@click.option("--schema", type=_PATH, help="schema.mysql.sql, to check that databases are known.")
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@handle_errors
def import_intercode_command(
    trajectories: tuple[Path, ...], tasks: Path, schema: Path | None, out: Path
) -> None:
    """InterCode-SQL trajectory files -> runs; unmappable records go to OUT.rejects.jsonl."""
    runs, rejects = import_intercode(trajectories, tasks)
    if schema is not None:
        runs, rejects = _known_databases(runs, rejects, load_schemas([schema]).keys())
    _write_import(out, runs, rejects)


@import_group.command("ehrsql")
@click.option("--data", required=True, type=_PATH, help="EHRSQL's data.json.")
@click.option("--labels", required=True, type=_PATH, help="EHRSQL's label.json.")
@click.option("--database", default="mimic_iv", show_default=True)
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@handle_errors
def import_ehrsql_command(data: Path, labels: Path, database: str, out: Path) -> None:
    """EHRSQL questions -> runs of zero steps, answerable false where the label is null."""
    runs, rejects = import_ehrsql(data, labels, database=database)
    _write_import(out, runs, rejects)


def _known_databases(
    runs: list[Run], rejects: list[RunReject], known: Any
) -> tuple[list[Run], list[RunReject]]:
    """Runs that ran SQL on a database missing from the schemas become rejects, named."""
    names = set(known)
    kept: list[Run] = []
    out = list(rejects)
    for run in runs:
        if run.steps and run.database not in names:
            reason = f"unknown database {run.database!r}: not in the schema files"
            out.append(RunReject(run.source or run.run_id, 0, reason))
        else:
            kept.append(run)
    return kept, out


def _load_runs(
    paths: Sequence[Path], schema: Sequence[Path]
) -> tuple[list[Run], list[RunReject], dict[str, Any]]:
    runs, rejects = read_runs(paths)
    catalogs = load_schemas(schema) if schema else {}
    if schema:
        runs, rejects = _known_databases(runs, rejects, catalogs.keys())
    if not runs:
        raise InputError(
            f"No usable run in {[str(p) for p in paths]} ({len(rejects)} rejected).",
            hint="Write runs with `assay monitor import` or the agent.",
        )
    return runs, rejects, catalogs


def _head_c(text: str) -> float | None:
    """``--head-c``: None for 'auto', else a positive number."""
    if text.strip().lower() == "auto":
        return None
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise InputError(
            f"--head-c {text!r} is neither 'auto' nor a positive number.",
            hint="Use --head-c auto, or e.g. --head-c 4.",
        )
    return value


_RUNS = click.option("--runs", "runs_paths", required=True, multiple=True, type=_PATH)
_SCHEMA = click.option(
    "--schema", multiple=True, type=_PATH, help="DDL of the databases (repeat), for features."
)


@monitor_group.command("train")
@_RUNS
@_SCHEMA
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--exclude-database", multiple=True, help="Hold a database out (repeat).")
@click.option("--group-by", type=click.Choice(["group", "database"]), default="group")
@click.option("--calibration-fraction", type=float, default=0.3, show_default=True)
@click.option("--seed", type=int, default=42, show_default=True)
@click.option(
    "--head-c",
    default="auto",
    show_default=True,
    help="The correctness head's C, or 'auto': chosen by leave-one-database-out on these runs.",
)
@click.option(
    "--view",
    type=click.Choice(["auto", "raw", "delex"]),
    default="auto",
    show_default=True,
    help="What the heads read: raw or delexicalised prefixes, or 'auto': chosen with the C by "
    "leave-one-database-out on these runs (delex needs --schema).",
)
@handle_errors
def train_command(
    runs_paths: tuple[Path, ...],
    schema: tuple[Path, ...],
    out: Path,
    exclude_database: tuple[str, ...],
    group_by: str,
    calibration_fraction: float,
    seed: int,
    head_c: str,
    view: str,
) -> None:
    """Fit the heads, freeze calibration and thresholds on a calibration pool, save with a hash."""
    if not 0.0 < calibration_fraction < 1.0:
        raise InputError(
            f"--calibration-fraction {calibration_fraction} is outside (0, 1).",
            hint="Use e.g. 0.3.",
        )
    c_value = _head_c(head_c)
    runs, rejects, catalogs = _load_runs(runs_paths, schema)
    runs = [r for r in runs if r.database not in set(exclude_database)]
    c_info: dict[str, Any] = {"chosen": c_value, "view": view, "reason": "given"}
    views: tuple[View, ...] = ("raw", "delex") if view == "auto" else (cast(View, view),)
    if view == "delex":
        missing = sorted({r.database for r in runs} - set(catalogs))
        if missing:
            raise InputError(
                f"--view delex needs the schema of databases {missing}; none was given.",
                hint="Pass their DDL with --schema, or use --view raw.",
            )
    chosen_view: View = views[0]
    if c_value is None or view == "auto":
        chosen_view, chosen_c, c_info = select_view_and_c(
            runs,
            catalogs,
            candidates=HEAD_C_CANDIDATES if c_value is None else (c_value,),
            views=views,
            group_by="database",
        )
        if c_value is None:
            c_value = chosen_c
        else:
            c_info["C_given"] = c_value
    monitor = train_monitor(
        runs,
        catalogs,
        calibration_fraction=calibration_fraction,
        group_by="database" if group_by == "database" else "group",
        seed=seed,
        head_c=c_value,
        view=chosen_view,
    )
    monitor.info["head_c_selection"] = c_info
    monitor.info["files"] = [str(p) for p in runs_paths]
    monitor.info["excluded_databases"] = sorted(exclude_database)
    monitor.info["rejected"] = len(rejects)
    digest = save_monitor(monitor, out)
    echo_json(
        {
            "out": str(out),
            "sha256": digest,
            "estimator": monitor.estimator,
            "theta": monitor.theta,
            "stops": monitor.stops,
            "head_c": c_value,
            "view": chosen_view,
            "n_train": monitor.info["n_train"],
            "n_calibration": monitor.info["n_calibration"],
            "rejected": len(rejects),
            "said": _said(monitor.theta, monitor.stops),
        }
    )


def _said(theta: float | None, stops: dict[str, float | None]) -> list[str]:
    """The frozen thresholds in plain words: a null theta or a stop at the smallest float
    (5e-324: only a prefix scored exactly 0 stops) read as bugs when printed bare.

    Example:
        >>> _said(None, {"1.0": 5e-324, "4.0": 0.25, "9.0": None})[1:]
        ['lambda 1.0: stop a run only where P(correct) is 0', 'lambda 4.0: stop a run once \
P(correct) < 0.250', 'lambda 9.0: never stop early (no threshold raised RS(9.0))']
    """
    out = [
        "theta: none, so no question is refused as unanswerable (the calibration runs hold no "
        "unanswerable question, or the answerability head could not be fitted)"
        if theta is None
        else f"theta {theta:.3f}: refuse a question once P(answerable) < {theta:.3f}"
    ]
    for lam, stop in stops.items():
        if stop is None:
            out.append(f"lambda {lam}: never stop early (no threshold raised RS({lam}))")
        elif stop < 1e-9:
            out.append(f"lambda {lam}: stop a run only where P(correct) is 0")
        else:
            out.append(f"lambda {lam}: stop a run once P(correct) < {stop:.3f}")
    return out


@monitor_group.command("eval")
@click.option("--monitor", "monitor_path", required=True, type=_PATH)
@_RUNS
@_SCHEMA
@click.option("--database", "databases", multiple=True, help="Evaluate only these (repeat).")
@click.option("--cluster", type=click.Choice(["group", "database"]), default="group")
@click.option("--seed", type=int, default=42, show_default=True)
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path))
@handle_errors
def eval_command(
    monitor_path: Path,
    runs_paths: tuple[Path, ...],
    schema: tuple[Path, ...],
    databases: tuple[str, ...],
    cluster: str,
    seed: int,
    out: Path,
) -> None:
    """Evaluate a saved monitor on held-out runs: OUT/report.json, OUT/report.html, and
    OUT/runs.jsonl (each run: what the monitor did with it, at which step)."""
    runs, rejects, catalogs = _load_runs(runs_paths, schema)
    monitor = load_monitor(monitor_path, catalogs)
    needed = set(monitor.info.get("schema_databases", [])) - set(catalogs)
    if monitor.estimator == "hybrid" and needed & {r.database for r in runs}:
        raise InputError(
            f"This monitor's delivery estimator reads schema features of {sorted(needed)}, "
            "but no --schema gives them.",
            hint="Pass the same --schema files as at training.",
        )
    if databases:
        present = {r.database for r in runs}
        absent = sorted(set(databases) - present)
        if absent:  # outside tryout 14: an unknown name printed a summary of NaNs
            raise InputError(
                f"No run in the runs files is on database(s) {absent}.",
                hint=f"Name one of {sorted(present)[:20]}, or leave out --database.",
            )
        runs = [r for r in runs if r.database in set(databases)]
    unread = sorted({r.database for r in runs} - set(catalogs))
    if monitor.view == "delex" and unread:
        raise InputError(
            f"This monitor reads delexicalised prefixes, which need the schema of databases "
            f"{unread}, but no --schema gives them.",
            hint="Pass the same --schema files as at training.",
        )
    overlap = sorted({r.database for r in runs} & set(_trained_on(monitor.info)))
    report = evaluate(
        monitor, runs, cluster="database" if cluster == "database" else "group", seed=seed
    )
    report["files"] = [str(p) for p in runs_paths]
    report["monitor"] = {"path": str(monitor_path), "info": monitor.info}
    report["databases_seen_in_training"] = overlap
    report["rejected"] = [r.to_dict() for r in rejects]
    # Outside tryout 17: only totals came out; which runs were stopped could not be seen.
    per_run = report.pop("per_run")
    out.mkdir(parents=True, exist_ok=True)
    # Strict JSON: a measure that could not be computed (NaN, an infinity) is null.
    text = json.dumps(_finite(report), indent=2, sort_keys=True, allow_nan=False, default=str)
    page = render_html(report)
    lines = "".join(
        json.dumps(_finite(r), sort_keys=True, allow_nan=False, default=str) + "\n" for r in per_run
    )
    for name, content in (
        ("report.json", text + "\n"),
        ("report.html", page),
        ("runs.jsonl", lines),
    ):
        tmp = out / (name + ".partial")
        tmp.write_text(content, encoding="utf-8")
        tmp.replace(out / name)
    if overlap:
        # Outside tryout 14: a training database scored 0.993 with no word on the screen.
        click.echo(
            f"Warning: the monitor was trained on runs of {overlap}; numbers on them are not "
            "held out (report.json: databases_seen_in_training).",
            err=True,
        )
    echo_json(_finite(_summary(report)))


def _finite(value: Any) -> Any:
    """``value`` with every NaN or infinite float replaced by ``None`` (JSON's null)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _trained_on(info: dict[str, Any]) -> list[str]:
    return list(info.get("databases", []))


def _summary(report: dict[str, Any]) -> dict[str, Any]:
    corr = report["correctness"]
    return {
        "n_evaluated": report["n_evaluated"],
        "correctness_auroc": corr["auroc"].get("value"),
        "answerability_auroc": report["answerability"].get("value"),
        "rs": {
            k: {n: v[n]["mean"] for n in ("vanilla", "monitored", "difference")}
            | {"difference_ci": v["difference"]["ci"]}
            for k, v in report["rs"].items()
            if k != "reason"
        },
        "steps_saved": {
            k: v["fraction"] for k, v in report["steps_saved"].items() if k != "reason"
        },
        "ece_before": corr["ece_before"],
        "ece_after": corr["ece_after"],
        "rejected": len(report["rejected"]),
    }


def ask_with_agent(
    question: str,
    db: str | None,
    settings: Any,
    monitor_path: Path | None,
    cost: float,
    n_runs: int = 1,
) -> Any:
    """``assay ask --agent``: the watched ReAct agent over the configured model, run
    ``n_runs`` times (``--n-samples``) and scored as that many samples."""
    from assay.connectors import connect
    from assay.generators import ChatClient, ChatEndpoint
    from assay.pipeline import ask_agent

    if db is None:
        raise InputError("--agent needs --db: the database the agent may query.")
    if cost <= 0:
        raise InputError(f"--cost {cost} must be > 0.", hint="Use e.g. 1, 4 or 9.")
    client = ChatClient(ChatEndpoint.from_settings(settings))
    try:
        with connect(db, settings) as connector:
            catalogs = {connector.catalog().database or "db": connector.catalog()}
            monitor = load_monitor(monitor_path, catalogs) if monitor_path else None
            return ask_agent(
                question,
                db,
                connector,
                settings,
                client,
                monitor=monitor,
                lam=cost,
                n_runs=n_runs,
            )
    finally:
        client.close()
