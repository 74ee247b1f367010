"""``assay ledger``: export the service's ledger as verdict and label files."""

from __future__ import annotations

from pathlib import Path

import click

from assay.cli._main import handle_errors

__all__ = ["calibrate_ledger", "ledger_group"]


@click.group("ledger")
def ledger_group() -> None:
    """The service's append-only ledger of questions, verdicts and feedback."""


@ledger_group.command("export")
@click.option("--ledger", "url", required=True, help="Ledger SQLAlchemy URL (sqlite:///...).")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Folder for verdicts.jsonl and labels.jsonl.",
)
@click.option("--database", help="Only this configured database's verdicts.")
@handle_errors
def export_command(url: str, out: Path, database: str | None) -> None:
    """Write the labelled verdicts and their labels (verdicts.jsonl, labels.jsonl), read by
    'assay report' and 'assay calibrate'; verdicts without a label are left out and counted."""
    from assay.ledger import Ledger

    ledger = Ledger(url)
    try:
        n_written, n_left_out = ledger.export(out, database)
    finally:
        ledger.close()
    left_out = (
        f"; left out {n_left_out} verdict{'s' if n_left_out != 1 else ''} without a label"
        if n_left_out
        else ""
    )
    click.echo(f"wrote {n_written} labelled verdicts and their labels to {out}{left_out}")


def calibrate_ledger(url: str, out: Path, min_labels: int) -> None:
    """``assay calibrate --ledger``: one isotonic calibrator per database with enough labels."""
    from assay.ledger import Ledger
    from assay.service import calibrate_from_ledger

    ledger = Ledger(url)
    try:
        fitted = calibrate_from_ledger(ledger, out, min_labels=min_labels)
    finally:
        ledger.close()
    for item in fitted:
        left_out = f" ({item.left_out})" if item.left_out else ""
        if item.calibrator is None:
            click.echo(
                f"{item.database}: not calibrated ({item.reason}); thresholds stay.{left_out}"
            )
        else:
            click.echo(
                f"{item.database}: isotonic calibrator on {item.n_labelled} labelled answers "
                f"saved to {out / (item.database + '.json')} (digest {item.calibrator.digest})"
                f"{left_out}"
            )
        if item.warning:
            click.echo(f"Warning: {item.database}: {item.warning}.", err=True)
