"""``assay report``, ``assay prereg freeze`` and ``assay faults``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from assay.bench.datasets import FAULTS
from assay.bench.report import build_report, rounded, write_report
from assay.bench.runner import (
    Hypothesis,
    bundle_hash,
    check_manifest,
    file_hash,
    freeze,
    load_hypotheses,
    run_planted,
)
from assay.cli._main import handle_errors, resolve_settings, settings_options
from assay.errors import InputError
from assay.generators import read_samples
from assay.ledger import labels_for, read_verdicts
from assay.pipeline import Scorer
from assay.scoring import RULES

__all__ = ["faults_command", "prereg_group", "report_command"]


@click.command("report")
@click.argument(
    "verdicts",
    nargs=-1,
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
)
@click.option(
    "--labels",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="JSONL {id, label}; default: the verdicts' own labels.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Folder for report.json, report.html and the figures.",
)
@click.option(
    "--manifest",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A frozen manifest: refuse to report if the bundle changed since.",
)
@click.option(
    "--hypotheses",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Hypotheses as JSON (default: the manifest's, else the built-in ones).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Bootstrap seed.")
@click.option(
    "--n-resamples", type=int, default=2_000, show_default=True, help="Bootstrap resamples."
)
@handle_errors
def report_command(
    verdicts: tuple[Path, ...],
    labels: Path | None,
    out: Path,
    manifest: Path | None,
    hypotheses: Path | None,
    seed: int,
    n_resamples: int,
) -> None:
    """Evaluate verdict files (one per rule, same answers): tables, hypotheses and figures."""
    bundle = bundle_hash()["hash"]
    click.echo(f"scoring bundle {bundle}")
    frozen = check_manifest(manifest) if manifest else None
    if frozen is not None:
        click.echo(f"manifest {manifest} matches (frozen {frozen['bundle']['hash']})")
    sets = {}
    inputs = {}
    for path in verdicts:
        records = read_verdicts(path)
        name = next(iter(records.values())).get("rule", {}).get("name", path.stem)
        if name in sets:
            name = f"{name}:{path.stem}"
        sets[name] = records
        inputs[path.name] = file_hash(path)
        click.echo(f"input {path.name} {inputs[path.name]}")
    if labels is not None:
        inputs[labels.name] = file_hash(labels)
        click.echo(f"labels {labels.name} {inputs[labels.name]}")
    chosen = load_hypotheses(hypotheses)
    if frozen is not None and hypotheses is None:
        chosen = tuple(Hypothesis(**h) for h in frozen["hypotheses"])
    stderr = sys.stderr
    bar: Any = click.progressbar(length=len(sets), label="bootstrapping", file=stderr)
    with bar:
        report = build_report(
            sets,
            labels_for(labels, list(sets.values())),
            hypotheses=chosen,
            seed=seed,
            n_resamples=n_resamples,
            inputs=inputs,
            bundle=bundle,
            manifest=frozen["bundle"]["hash"] if frozen else "",
            progress=lambda _: bar.update(1),
        )
    write_report(report, out)
    missing: set[str] = set()
    for h in report["hypotheses"]:
        why = f": {h['reason']}" if h.get("reason") else ""
        click.echo(f"{h['id']}: {h['result']}{why} ({h['statement']})")
        missing.update(h.get("missing_rules", ()))
    if missing:
        names = sorted(missing)
        click.echo(
            f"To evaluate them, score the same samples with "
            f"{' and '.join(f'`assay score --rule {n}`' for n in names)} and pass every "
            "verdict file here, or state your own with --hypotheses "
            "(the built-in ones are the paper's)."
        )
    click.echo(f"wrote {out}/report.json, report.html and {len(report['rules'])} rules' figures")


@click.group("prereg")
def prereg_group() -> None:
    """Pre-registration: freeze the scoring bundle and the hypotheses."""


@prereg_group.command("freeze")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="Where to write the manifest.",
)
@click.option(
    "--hypotheses",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Hypotheses as JSON (default: the built-in H1, H2a, H2b).",
)
@click.option("--note", default="", help="A note stored in the manifest.")
@handle_errors
def prereg_freeze(out: Path, hypotheses: Path | None, note: str) -> None:
    """Write a manifest with the bundle hash and the hypotheses, before any confirmatory data."""
    if out.exists():
        raise InputError(
            f"Manifest {str(out)!r} already exists; a freeze is never overwritten.",
            hint="Choose another path.",
        )
    manifest = freeze(out, load_hypotheses(hypotheses), note)
    click.echo(
        f"froze bundle {manifest['bundle']['hash']} with "
        f"{len(manifest['hypotheses'])} hypotheses in {out}"
    )


@click.command("faults")
@click.argument("samples", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--rule",
    type=click.Choice(list(RULES)),
    default="designed",
    show_default=True,
    help="Scoring rule.",
)
@click.option(
    "--out", type=click.Path(dir_okay=False, path_type=Path), help="Write the table as JSON here."
)
@click.option(
    "--kind",
    "kinds",
    multiple=True,
    type=click.Choice(list(FAULTS)),
    help="Fault kinds to plant (default: all eight).",
)
@settings_options("time_limit_ms")
@handle_errors
def faults_command(
    samples: Path, rule: str, out: Path | None, kinds: tuple[str, ...], **kwargs: Any
) -> None:
    """Plant errors into answers labelled correct and rescore them (the paper's Table 3)."""
    settings = resolve_settings(kwargs)
    records = [line.record for line in read_samples(samples) if line.record is not None]
    if not any(r.label == 1 for r in records):
        raise InputError(
            f"{samples} has no answers labelled correct (label 1).",
            hint="Planted errors go into correct answers; label some.",
        )
    with Scorer.named(
        rule, settings=settings, write_missing_text=True, base_dir=samples.parent
    ) as scorer:
        report = run_planted(records, scorer, kinds or tuple(FAULTS))
    table = rounded(report.to_dict())
    click.echo(f"{'fault':16} {'n':>4} {'withheld':>9} {'not shown':>10} {'check fired':>12}")
    for row in table["faults"]:
        fired = "n/a" if row["check_fired"] is None else f"{row['check_fired']:.0%}"
        withheld = "n/a" if row["withheld"] is None else f"{row['withheld']:.0%}"
        shown = "n/a" if row["not_shown"] is None else f"{row['not_shown']:.0%}"
        click.echo(f"{row['kind']:16} {row['planted']:>4} {withheld:>9} {shown:>10} {fired:>12}")
    click.echo(
        f"controls rescored identically: {table['controls_identical']} of {table['controls']}"
    )
    if out is not None:
        out.write_text(json.dumps(table, indent=2, sort_keys=True) + "\n", encoding="utf-8")
