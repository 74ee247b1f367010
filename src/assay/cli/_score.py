"""``assay score`` and ``assay calibrate``: verdicts for sample files, and calibrators."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any, TextIO

import click

from assay.checks import ModelJudge
from assay.cli._main import handle_errors, resolve_settings, settings_options
from assay.cli._render import render_verdict
from assay.errors import InputError, ScoringError
from assay.gate import GatePolicy
from assay.generators import ChatClient, ChatEndpoint, read_samples
from assay.ledger import append_verdict, drop_ids, labels_for, read_verdicts, written_ids
from assay.pipeline import Scorer
from assay.scoring import (
    DEFAULT_RULE,
    RULES,
    IsotonicCalibrator,
    SamplerReliability,
    fit_isotonic,
    flat_map,
    get_rule,
)

__all__ = ["calibrate_command", "score_command"]


def _policy(cost: float | None, calibrator: Path | None, rule: str) -> GatePolicy:
    if (cost is None) != (calibrator is None):
        raise InputError(
            "--cost and --calibrator go together (Chow's rule needs both).",
            hint="Give both, or neither for the 0.80 / 0.60 thresholds.",
        )
    if cost is not None and calibrator is not None:
        loaded = IsotonicCalibrator.load(calibrator)
        # A calibrator maps one rule's scores to probabilities; another rule's scores mean
        # something else (outside tryout 14: a calibrator fitted on 'assay' gate 'designed'
        # scores and showed 22 wrong answers). One fitted before the rule was recorded is
        # taken as it is.
        if loaded.rule and loaded.rule != rule:
            raise InputError(
                f"Calibrator {str(calibrator)!r} was fitted on scores of the rule "
                f"{loaded.rule!r}, not of {rule!r}.",
                hint=f"Score with --rule {loaded.rule}, or fit a calibrator on verdicts scored "
                f"with --rule {rule} ('assay calibrate').",
            )
        return GatePolicy.chow(cost, loaded)
    return GatePolicy()


@click.command("score")
@click.argument("samples", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--rule",
    type=click.Choice(list(RULES)),
    default=DEFAULT_RULE,
    show_default=True,
    help="Scoring rule (assay is assay-1.0; the paper's rules stay for replication).",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write verdicts here, one JSON line each, as they are made.",
)
@click.option("--resume", is_flag=True, help="Skip ids already written to --out.")
@click.option("--show", is_flag=True, help="Print each verdict readably.")
@click.option("--cost", type=float, help="Chow's rule: cost lambda of showing a wrong answer.")
@click.option(
    "--calibrator",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Calibrator from 'assay calibrate' (with --cost).",
)
@click.option(
    "--reliability",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Sampler reliabilities (JSON, see docs/samples.md): weigh each sample's agreement by "
    "its sampler's measured share of right answers.",
)
@click.option(
    "--judge",
    is_flag=True,
    help="Ask the configured model (ASSAY_LLM_*) for COMPLETE and unsupported claims.",
)
@settings_options(
    "time_limit_ms", "memory_limit_mb", "matching", "llm_base_url", "llm_model", "llm_api_key"
)
@handle_errors
def score_command(
    samples: Path,
    rule: str,
    out: Path | None,
    resume: bool,
    show: bool,
    cost: float | None,
    calibrator: Path | None,
    reliability: Path | None,
    judge: bool,
    **kwargs: Any,
) -> None:
    """Give every question in a samples file a verdict: show, warn or withhold, and why.

    Exit status: 0 when every line has a verdict (a sample whose SQL failed is evidence, named
    in its record, not a failure); 1 when some line could not be scored (each such line is a
    record with status "failed" and a named failure code); 2 for usage errors.
    """
    if resume and out is None:
        raise click.UsageError(
            "--resume continues the verdicts file named by --out, and no --out was given. "
            "Pass --out PATH (the file to continue), or leave out --resume."
        )
    settings = resolve_settings(kwargs)
    matching = str(settings.matching)
    if matching not in ("strict", "permuted", "relaxed"):
        raise InputError(
            f"Unknown matching policy {matching!r}.",
            hint="Use --matching strict, permuted or relaxed (or ASSAY_MATCHING).",
        )
    policy = _policy(cost, calibrator, rule)
    model_judge = ModelJudge(ChatClient(ChatEndpoint.from_settings(settings))) if judge else None
    if not samples.exists():
        raise InputError(
            f"Samples file {str(samples)!r} does not exist.",
            hint="Give the path of a JSONL file (see docs/samples.md).",
        )
    done: Counter[str] = Counter()
    if out is not None and out.exists():
        if not resume:
            raise InputError(
                f"Output {str(out)!r} already exists.",
                hint="Pass --resume to continue it, or remove it to start over.",
            )
        done = written_ids(out)
        wanted = {line.id or f"line-{line.line_no}" for line in read_samples(samples)}
        dropped = drop_ids(out, wanted) if set(done) - wanted else []
        if dropped:
            shown = ", ".join(repr(i) for i in dict.fromkeys(dropped[:10]))
            click.echo(
                f"Dropped {len(dropped)} verdicts from {str(out)!r} whose ids are not in "
                f"{str(samples)!r} ({shown}{', ...' if len(dropped) > 10 else ''}).",
                err=True,
            )
            done = Counter({i: n for i, n in done.items() if i in wanted})
    sink: TextIO = out.open("a", encoding="utf-8") if out else sys.stdout
    counts: Counter[str] = Counter()
    try:
        with Scorer(
            get_rule(rule),
            policy,
            settings,
            matching,  # type: ignore[arg-type]
            judge=model_judge,
            base_dir=samples.parent,
            reliability=SamplerReliability.load(reliability) if reliability else None,
        ) as scorer:
            seen: set[str] = set()
            for line in read_samples(samples):
                ident = line.id or f"line-{line.line_no}"
                duplicate = ident in seen
                seen.add(ident)
                if done[ident] > 0:
                    done[ident] -= 1
                    counts["skipped"] += 1
                    continue
                if line.record is None:
                    verdict = scorer.failed(
                        ident,
                        line.error.code if line.error else "input.invalid",
                        str(line.error) if line.error else f"Line {line.line_no} is unreadable.",
                    )
                elif duplicate:
                    verdict = scorer.failed(
                        ident,
                        "input.duplicate_id",
                        f"Line {line.line_no} repeats id {ident!r}; only its first line is "
                        "scored. Give every question its own id.",
                        line.record.label,
                    )
                else:
                    verdict = scorer.score_line(line.record)
                record = verdict.to_dict()
                if out is not None or not show:
                    append_verdict(sink, record)
                if show:
                    click.echo(render_verdict(record))
                counts["failed" if verdict.failure else verdict.action] += 1
                counts["sample_failures"] += len(verdict.failures)
    finally:
        if out is not None:
            sink.close()
    _summary(counts)


def _summary(counts: Counter[str]) -> None:
    scored = sum(counts[a] for a in ("show", "warn", "withhold"))
    line = (
        f"Scored {scored} question{'' if scored == 1 else 's'}: show {counts['show']}, "
        f"warn {counts['warn']}, "
        f"withhold {counts['withhold']}"
    )
    if counts["skipped"]:
        line += f"; skipped {counts['skipped']} already written"
    if counts["failed"] or counts["sample_failures"]:
        line += (
            f"; {counts['failed']} lines failed and {counts['sample_failures']} samples' "
            "SQL failed (named in their records)"
        )
    click.echo(line + ".", err=True)
    if counts["failed"]:
        raise click.exceptions.Exit(1)


def _route_records(
    records: list[dict[str, Any]], given: dict[str, int], min_labels: int, n_read: int
) -> list[dict[str, Any]]:
    """The verdicts that carry a route decision, scored by the route's raw score (the
    calibrator's input: ``route.score`` is already mapped when the verdict was routed with a
    calibrator; a verdict from before ``raw`` was recorded gives ``score``).

    Raises:
        ScoringError: fewer than ``min_labels`` labelled route verdicts.
    """
    out = []
    for r in records:
        routed = (r.get("provenance") or {}).get("route")
        if not isinstance(routed, dict):
            continue
        raw = routed.get("raw", routed.get("score"))
        if isinstance(raw, (int, float)) and not isinstance(raw, bool):
            out.append({**r, "score": float(raw), "rule": {"name": "route"}})
    labelled = sum(1 for r in out if str(r["id"]) in given)
    if labelled < min_labels:
        raise ScoringError(
            f"Only {labelled} of the {n_read} verdicts carry a route score and a label; the "
            f"routing calibrator needs at least {min_labels} (--min-labels).",
            hint="Label more routed answers ('assay ask' verdicts with provenance.route), or "
            "lower --min-labels knowingly: an isotonic map on a few answers is mostly noise.",
        )
    return out


@click.command("calibrate")
@click.argument(
    "verdicts", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option("--ledger", help="Calibrate per database from the service's ledger (URL).")
@click.option(
    "--min-labels",
    default=50,
    show_default=True,
    help="With --ledger or --route: labelled answers needed.",
)
@click.option(
    "--labels",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="JSONL {id, label}; default: the verdicts' own labels.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    required=True,
    help="Where to save the calibrator (JSON; with --ledger, a folder).",
)
@click.option(
    "--route",
    "for_route",
    is_flag=True,
    help="Fit the routing calibrator (Rosetta 4.3) on the verdicts' route scores "
    "(provenance.route.score), for 'assay ask --route-calibrator'.",
)
@handle_errors
def calibrate_command(
    verdicts: Path | None,
    ledger: str | None,
    min_labels: int,
    labels: Path | None,
    out: Path,
    for_route: bool = False,
) -> None:
    """Fit an isotonic calibrator from scored verdicts and labels, for Chow's rule (with
    --ledger: one per database into the --out folder, from the service's feedback)."""
    if ledger is not None:
        from assay.cli._ledger import calibrate_ledger

        return calibrate_ledger(ledger, out, min_labels)
    if verdicts is None:
        raise click.UsageError("Give a verdicts file, or --ledger URL.")
    # The same reader and label rules as 'assay report': malformed lines and duplicate ids are
    # named, and every scored verdict needs a label.
    loaded = read_verdicts(verdicts)
    given = labels_for(labels, [loaded])
    records = [r for r in loaded.values() if r.get("status") == "ok" and r.get("score") is not None]
    if for_route:
        records = _route_records(records, given, min_labels, len(loaded))
    missing = [str(r["id"]) for r in records if str(r["id"]) not in given]
    if missing:
        raise ScoringError(
            f"{len(missing)} verdicts have no label, e.g. {missing[:5]}.",
            hint="Give a label for every scored verdict.",
        )
    rules = {r["rule"]["name"] for r in records}
    if len(rules) > 1:
        raise ScoringError(
            f"The verdicts mix rules {sorted(rules)}.",
            hint="Calibrate one rule's verdicts at a time.",
        )
    calibrator = fit_isotonic(
        [float(r["score"]) for r in records],
        [given[str(r["id"])] for r in records],
        rule=next(iter(rules), ""),
    )
    calibrator.save(out)
    click.echo(
        f"Saved an isotonic calibrator fitted on {calibrator.n} verdicts to {out} "
        f"(digest {calibrator.digest})."
    )
    warning = flat_map([float(r["score"]) for r in records], calibrator)
    if warning:
        click.echo(f"Warning: {warning}.", err=True)
