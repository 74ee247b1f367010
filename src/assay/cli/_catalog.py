"""``assay catalog``: the schema (default), the deep profile, keys, facts, mangling, evaluation."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import click

from assay.cli._main import echo_json, handle_errors, resolve_settings, settings_options
from assay.cli._render import render_catalog
from assay.connectors import connect
from assay.errors import InputError

__all__ = ["catalog_group"]

_DB_HELP = "A DuckDB or SQLite file path, or an SQLAlchemy URL (postgresql://...)."


def _show(db: str, as_json: bool) -> None:
    with connect(db) as connector:
        catalog = connector.catalog()
    if as_json:
        echo_json(catalog.to_dict())
    else:
        click.echo(render_catalog(catalog))


@click.group("catalog", invoke_without_command=True)
@click.option("--db", help=_DB_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON record.")
@click.pass_context
@handle_errors
def catalog_group(ctx: click.Context, db: str | None, as_json: bool) -> None:
    """Print the database's tables, columns with types, and declared foreign keys.

    Subcommands reconstruct what the schema does not say: profile, keys, facts, accept,
    mangle, evaluate.
    """
    if ctx.invoked_subcommand is None:
        if not db:
            raise click.UsageError("Missing option '--db'.")
        _show(db, as_json)


@catalog_group.command("show")
@click.option("--db", required=True, help=_DB_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON record.")
@handle_errors
def show_command(db: str, as_json: bool) -> None:
    """Print the database's tables, columns with types, and declared foreign keys."""
    _show(db, as_json)


@catalog_group.command("profile")
@click.option("--db", required=True, help=_DB_HELP)
@click.option("--seed", default=0, show_default=True, help="Seed of the row sample.")
@click.option("--sample-rows", default=5000, show_default=True, help="Rows sampled per table.")
@click.option("--store", type=click.Path(dir_okay=False), help="Record the facts in this store.")
@click.option("--out", type=click.Path(dir_okay=False), help="Write the profile JSON here.")
@settings_options("llm_base_url", "llm_model", "llm_api_key", "llm_timeout_s")
@handle_errors
def profile_command(
    db: str, seed: int, sample_rows: int, store: str | None, out: str | None, **kwargs: Any
) -> None:
    """Reconstruct the catalog from the data: profile, patterns, keys, rollups, PII, tables.

    Tier C (a model-proposed regex, verified against the data) runs only when a model endpoint
    is configured.
    """
    from assay.catalog import proposals, reconstruct
    from assay.generators._namer import chat_namer
    from assay.ledger import FactStore

    settings = resolve_settings(kwargs)
    with connect(db) as connector:
        found = reconstruct(
            connector,
            connector.catalog(),
            rng=seed,
            sample_rows=sample_rows,
            namer=chat_namer(settings),
        )
    text = found.profile.to_json()
    if out:
        Path(out).write_text(text + "\n", encoding="utf-8")
    counts: dict[str, int] = {}
    if store:
        with FactStore(store) as facts:
            for proposal in proposals(found):
                status = facts.record(proposal).status
                counts[status] = counts.get(status, 0) + 1
    if not out:
        click.echo(text)
    else:
        click.echo(
            f"Profiled {len(found.profile.tables)} tables; {len(found.keys.keys)} keys, "
            f"{len([r for r in found.rollups if not r.alias])} rollups, {len(found.pii)} PII "
            f"columns. Facts: {json.dumps(counts, sort_keys=True)}"
        )


@catalog_group.command("keys")
@click.option("--db", required=True, help=_DB_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON record.")
@handle_errors
def keys_command(db: str, as_json: bool) -> None:
    """Foreign keys proved by inclusion dependency in the data (declared keys are not read)."""
    from assay.catalog import deep_profile, discover_foreign_keys

    with connect(db) as connector:
        found = discover_foreign_keys(connector, deep_profile(connector, connector.catalog()))
    if as_json:
        echo_json(
            {
                "keys": [k.__dict__ for k in found.keys],
                "pairs": found.n_pairs,
                "pruned": found.n_pruned,
                "joins": found.n_joins,
            }
        )
        return
    for k in found.keys:
        click.echo(f"{k.subject} -> {k.target}  (containment {k.containment:.3f})")
    click.echo(
        f"{found.n_pairs} pairs, {found.n_pruned} pruned before any join, "
        f"{found.n_joins} joins run."
    )


@catalog_group.command("facts")
@click.option("--store", required=True, type=click.Path(dir_okay=False, exists=True))
@click.option("--all", "show_all", is_flag=True, help="Include superseded facts.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON lines.")
@handle_errors
def facts_command(store: str, show_all: bool, as_json: bool) -> None:
    """List the facts in a store: id, status, tier, confidence, subject, predicate, value."""
    from assay.ledger import FactStore

    with FactStore(store) as facts:
        for fact in facts.facts(live_only=not show_all):
            if as_json:
                echo_json(fact.to_dict())
            else:
                click.echo(
                    f"{fact.id:>5} {fact.status:<12} {fact.tier.name:<18} {fact.confidence:.2f} "
                    f"{fact.subject} {fact.predicate} {json.dumps(fact.value)}"
                    + ("" if fact.live else "  (superseded)")
                )


@catalog_group.command("accept")
@click.argument("fact", type=int)
@click.option("--store", required=True, type=click.Path(dir_okay=False, exists=True))
@click.option("--by", "accepted_by", default="human", show_default=True, help="Who accepts.")
@handle_errors
def accept_command(fact: int, store: str, accepted_by: str) -> None:
    """Accept FACT's exact value (tier SME_AFFIRMED until the data or the value changes)."""
    from assay.ledger import FactStore

    with FactStore(store) as facts:
        lifted = facts.accept(fact, accepted_by=accepted_by)
    click.echo(
        f"Fact {fact} accepted: {lifted.subject} {lifted.predicate} {json.dumps(lifted.value)} "
        f"is now fact {lifted.id}, {lifted.tier.name} ({lifted.confidence:.2f})."
    )


@catalog_group.command("mangle")
@click.option("--db", required=True, type=click.Path(dir_okay=False), help="DuckDB or SQLite.")
@click.option("--severity", required=True, type=click.FloatRange(0.0, 1.0))
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--out", required=True, type=click.Path(dir_okay=False))
@handle_errors
def mangle_command(db: str, severity: float, seed: int, out: str) -> None:
    """Copy DB with opaque names, no declared keys or comments; write OUT.names.json."""
    from assay.catalog import mangle

    names = mangle(Path(db), Path(out), severity=severity, seed=seed)
    click.echo(
        f"Wrote {out} ({len(names.tables)} tables and {len(names.columns)} columns renamed) "
        f"and {out}.names.json."
    )


@catalog_group.command("evaluate")
@click.option("--db", required=True, help=_DB_HELP)
@click.option("--truth-db", help="Score against this database's declared keys.")
@click.option("--spider", type=click.Path(dir_okay=False, exists=True), help="tables.json.")
@click.option("--db-id", help="The Spider db_id (with --spider).")
@click.option("--spec", type=click.Choice(["tpch", "tpcds"]), help="A TPC specification.")
@click.option("--names", type=click.Path(dir_okay=False, exists=True), help="A mangle map.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON record.")
@handle_errors
def evaluate_command(
    db: str,
    truth_db: str | None,
    spider: str | None,
    db_id: str | None,
    spec: str | None,
    names: str | None,
    as_json: bool,
) -> None:
    """Precision and recall of the keys found in DB against the true keys, with misses by name."""
    from assay.catalog import (
        TPCH_KEYS,
        declared_keys,
        deep_profile,
        discover_foreign_keys,
        evaluate_keys,
        read_name_map,
        spider_keys,
        tpcds_keys,
    )

    if sum(x is not None for x in (truth_db, spider, spec)) != 1:
        raise InputError(
            "Name exactly one truth: --truth-db, --spider (with --db-id) or --spec.",
            hint="e.g. --spec tpch, or --truth-db the unmangled original.",
        )
    name_map = read_name_map(Path(names)) if names else None
    with connect(db) as connector:
        found = discover_foreign_keys(connector, deep_profile(connector, connector.catalog()))
    edges = tuple((k.table, k.column, k.ref_table, k.ref_column) for k in found.keys)
    if truth_db:
        with connect(truth_db) as original:
            catalog = original.catalog()
        truth = declared_keys(catalog.foreign_keys)
    elif spider:
        if not db_id:
            raise InputError("--spider needs --db-id.", hint="e.g. --db-id concert_singer")
        truth = spider_keys(Path(spider), db_id)
    elif spec == "tpch":
        truth = TPCH_KEYS
    else:
        original_columns = list(name_map.columns) if name_map is not None else _columns_of(db)
        truth = tpcds_keys(original_columns)
    result = evaluate_keys(edges, truth, name_map)
    if as_json:
        echo_json(result.to_dict())
        return
    record = result.to_dict()
    p = "n/a" if math.isnan(result.precision) else f"{result.precision:.3f}"
    r = "n/a" if math.isnan(result.recall) else f"{result.recall:.3f}"
    click.echo(
        f"precision {p}  recall {r}  ({result.n_correct} of {result.n_found} found, "
        f"{result.n_truth} true)"
    )
    for miss in record["misses"]:  # type: ignore[attr-defined]
        click.echo(f"  missed: {miss}")
    for false in record["false_keys"]:  # type: ignore[attr-defined]
        click.echo(f"  false:  {false}")


def _columns_of(db: str) -> list[tuple[str, str]]:
    with connect(db) as connector:
        catalog = connector.catalog()
    return [(t.name, c.name) for t in catalog.tables for c in t.columns]
