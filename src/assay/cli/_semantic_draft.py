"""``assay semantic init`` (a drafted layer) and ``assay semantic check`` (every problem).

Both are added to the ``semantic`` group of ``assay.cli._semantic``; ``_main`` loads the group
from here so that they are registered.

Why one module of about 720 lines, over the house aim of 400: ``import_command`` reads an
imported layer against the database before it is written (columns absent, values to list,
aggregates to guess, undated tables, per-metric coverage, joins that lose or fan out rows), and
each of those helpers writes one kind of note a new user reads after the import. They belong
with the command that prints them; moved, they would be a second module of the same notes.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click

from assay.cli._main import handle_errors
from assay.cli._semantic import semantic_group
from assay.connectors import connect
from assay.errors import InputError, SemanticError

__all__ = ["check_command", "import_command", "init_command", "semantic_group"]

_DB_HELP = "A DuckDB or SQLite file path, or an SQLAlchemy URL (postgresql://...)."


@semantic_group.command("init")
@click.option("--db", required=True, help=_DB_HELP)
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--seed", default=0, show_default=True, help="Seed of the profiler's row sample.")
@click.option("--force", is_flag=True, help="Replace an existing file.")
@click.option(
    "--store",
    type=click.Path(dir_okay=False),
    help="Record the facts in this fact store and name each element's fact by its id (an "
    "accepted fact lifts its element's tier when the layer is drafted again).",
)
@handle_errors
def init_command(db: str, out: Path, seed: int, force: bool, store: str | None) -> None:
    """Draft a semantic layer from the data: joins, metrics, dimensions, clock and coverage.

    Every element carries its evidence (a comment) and its tier, confidence and fact (fields the
    agent reads). Data without dates gives a layer without time. The file is validated before
    it is written and written atomically.
    """
    from assay.catalog import closed_domains, declared_keys, proposals, reconstruct
    from assay.semantic._draft import DraftInput, draft_layer, write_layer
    from assay.semantic._draft_calendar import calendar_spans

    if out.exists() and not force:
        raise InputError(f"{str(out)!r} already exists.", hint="Choose another --out or --force.")
    with connect(db) as connector:
        catalog = connector.catalog()
        found = reconstruct(connector, catalog, rng=seed)
        # Only keys whose names agree are joins; the others stay identifiers, never measures.
        joinable = [k for k in found.keys.keys if k.named]
        referenced = {k.ref_table for k in joinable} | {fk.ref_table for fk in catalog.foreign_keys}
        domains = closed_domains(
            connector, found.profile, parents=frozenset(referenced), wide_values=60
        )
        edges = [
            {"left": f"{k.table}.{k.column}", "right": f"{k.ref_table}.{k.ref_column}"}
            for k in joinable
        ] + [
            {"left": f"{t}.{c}", "right": f"{rt}.{rc}"}
            for t, c, rt, rc in declared_keys(catalog.foreign_keys)
        ]
        orphans = {
            tuple(j["left"].split(".", 1)): lost for j, lost in _orphan_joins(connector, edges)
        }
        calendars, spans = calendar_spans(
            connector,
            found.profile,
            [(k.table, k.column, k.ref_table, k.ref_column) for k in joinable]
            + list(declared_keys(catalog.foreign_keys)),
        )
    facts = {}
    if store:
        from assay.ledger import FactStore

        with FactStore(store) as fact_store:
            for proposal in proposals(found):
                stored = fact_store.record(proposal)
                facts[(stored.subject, stored.predicate)] = (
                    stored.id,
                    stored.tier,
                    stored.confidence,
                )
    pii = frozenset((p.table, p.column) for p in found.pii)
    classes = {f"{p.table}.{p.column}": p.pii for p in found.pii}
    name = Path(db).stem if "://" not in db else db.rsplit("/", 1)[-1]
    text = draft_layer(
        DraftInput(
            name,
            catalog,
            found.profile,
            found.keys.keys,
            domains,
            pii,
            classes,
            facts,
            {(t, c): max(lost, 1) for (t, c), lost in orphans.items()},
            calendars,
            spans,
            frozenset((t, c) for (t, c), lost in orphans.items() if lost < 0),
        )
    )
    write_layer(text, out)
    n_metrics = text.count("\n  - name:") - text.count("\n    column:")
    n_declared = text.count("\n  # declared in the schema")
    n_inferred = text.count("\n  # inferred: ")
    click.echo(
        f"Wrote {out}: {n_declared} declared and {n_inferred} inferred joins, {n_metrics} "
        f"metrics, {text.count(chr(10) + '    column:')} dimensions. Review the comments "
        "before use."
    )


@semantic_group.command("check")
@click.option("--db", required=True, help=_DB_HELP)
@click.option(
    "--semantic", "semantic_path", required=True, type=click.Path(dir_okay=False, path_type=Path)
)
@handle_errors
def check_command(db: str, semantic_path: Path) -> None:
    """Report every problem of a layer at once, each with its path in the file."""
    from assay.semantic import check_against, load_semantic

    try:
        layer = load_semantic(semantic_path)
    except SemanticError as exc:
        problems = list(exc.details.get("problems", [])) if exc.details else []
        if not problems:
            raise
        for problem in problems:
            click.echo(problem)
        raise click.exceptions.Exit(1) from None
    with connect(db) as connector:
        problems = check_against(layer, connector.catalog())
    for problem in problems:
        click.echo(problem)
    if problems:
        raise click.exceptions.Exit(1)
    click.echo(f"{semantic_path}: no problems.")


@semantic_group.command("import")
@click.option(
    "--from",
    "source_format",
    type=click.Choice(["metricflow", "cortex", "cube", "osi"]),
    required=True,
)
@click.option("--source", required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--db", required=True, help=_DB_HELP)
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@handle_errors
def import_command(source_format: str, source: Path, db: str, out: Path) -> None:
    """Import a layer a team already keeps; print what could not be mapped, with its path.

    The clock and coverage come from the first and last dates of the imported time columns.
    Verified queries (Cortex Analyst) become trusted examples only when their SQL passes the
    guard and runs on --db; the others are reported. Nothing is written unless the whole
    layer validates against --db, and the file is written atomically.
    """
    import datetime as dt

    import yaml

    from assay.semantic import check_against, parse_semantic
    from assay.semantic._draft import write_layer
    from assay.semantic._import_cortex import import_cortex
    from assay.semantic._import_cube import import_cube
    from assay.semantic._import_metricflow import import_metricflow, with_dates
    from assay.semantic._import_osi import import_osi

    importers = {
        "metricflow": import_metricflow,
        "cortex": import_cortex,
        "cube": import_cube,
        "osi": import_osi,
    }
    result = importers[source_format](source)
    lows: list[dt.date] = []
    highs: list[dt.date] = []
    with connect(db) as connector:
        catalog = connector.catalog()
        placed = _check_schemas(connector, catalog, result.schemas)
        result = _absent_columns(catalog, result)
        result = _guess_aggregates(connector, catalog, result)
        _need_metrics(result, source)
        result = _untime_undated(connector, catalog, result)
        spans: dict[tuple[str, str], tuple[dt.date, dt.date]] = {}
        for pair, sql in _date_ranges(result.layer, catalog):
            rows = connector.execute(sql, time_limit_ms=60_000, max_rows=1).rows
            if rows and rows[0][0] is not None:
                lows.append(dt.date.fromisoformat(str(rows[0][0])[:10]))
                highs.append(dt.date.fromisoformat(str(rows[0][1])[:10]))
                spans[pair] = (lows[-1], highs[-1])
        if lows:
            _own_coverage(result.layer["metrics"], spans, (min(lows), max(highs)))
        fanning = _fanning_joins(connector, result.layer.get("joins", []))
        timed = [m["name"] for m in result.layer["metrics"] if m.get("time_column")]
        if timed and not lows:
            raise SemanticError(
                "No imported time column holds a date in the database (metrics "
                + ", ".join(timed)
                + ").",
                hint="Load the project's data into --db first.",
            )
        raw = with_dates(result, min(lows), max(highs)) if lows else with_dates(result, None, None)
        undefined = _undefined_phrases(result.undefined, raw)
        if undefined:
            raw["undefined_concepts"] = undefined
        bad = {
            (j["left"], j["right"]): f"{j['right']} is not unique in the data: the join fans out"
            for j in result.layer.get("joins", [])
            if j["right"] in fanning
        }
        partial: dict[tuple[str, str], int] = {}
        for j, lost in _orphan_joins(connector, result.layer.get("joins", [])):
            if lost > 0:
                partial[(j["left"], j["right"])] = lost
            else:
                bad.setdefault((j["left"], j["right"]), "the join could not be checked on the data")
        raw["joins"] = [j for j in raw.get("joins", []) if (j["left"], j["right"]) not in bad]
        for j in raw["joins"]:
            # Kept, marked: only a positive filter on the right table's columns may join it.
            if (j["left"], j["right"]) in partial:
                j["unmatched"] = partial[(j["left"], j["right"])]
        raw["forbidden_joins"] = [
            {
                "left": j["left"].split(".")[0],
                "right": j["right"].split(".")[0],
                "reason": bad[(j["left"], j["right"])],
            }
            for j in result.layer.get("joins", [])
            if (j["left"], j["right"]) in bad
        ]
        partial_notes = [
            f"join {left} -> {right}: {lost} rows of {left.split('.')[0]} have no match in "
            f"{right} (a NULL or missing key): joined inner only where a filter or a period "
            f"keeps {right.split('.')[0]} to given values, LEFT joined for a breakdown (those "
            "rows a group of their own), never for a total"
            for (left, right), lost in partial.items()
            if (left, right) not in bad
        ]
        unmapped = list(result.unmapped) + [
            f"join {j['left']} -> {j['right']}: {bad[(j['left'], j['right'])]}; made a "
            "forbidden join"
            for j in result.layer.get("joins", [])
            if (j["left"], j["right"]) in bad
        ]
        text = yaml.safe_dump(raw, sort_keys=False, allow_unicode=True)
        layer = parse_semantic(yaml.safe_load(text), source=f"The import of {source}")
        problems = check_against(layer, catalog)
        if problems:
            raise SemanticError(
                "The imported layer does not match the database: " + "; ".join(problems),
                hint="Load the project's tables into --db under the names its models use.",
                details={"problems": problems},
            )
        read = _read_values(connector, catalog, raw)
        if read:
            text = yaml.safe_dump(raw, sort_keys=False, allow_unicode=True)
            layer = parse_semantic(yaml.safe_load(text), source=f"The import of {source}")
        if layer.trusted_examples:
            kept, refused = _guarded_examples(connector, layer, raw["trusted_examples"])
            unmapped += refused
            raw["trusted_examples"] = kept
            if not kept:
                del raw["trusted_examples"]
            text = yaml.safe_dump(raw, sort_keys=False, allow_unicode=True)
            layer = parse_semantic(yaml.safe_load(text), source=f"The import of {source}")
    notes = [*result.notes, *partial_notes, *placed, *read]
    header = "".join(f"# not mapped: {u}\n" for u in unmapped)
    header += "".join(f"# note: {n}\n" for n in notes)
    write_layer(header + text, out)
    for item in unmapped:
        click.echo(f"not mapped: {item}")
    for item in notes:
        click.echo(f"note: {item}")
    click.echo(
        f"Wrote {out}: {len(layer.metrics)} metrics, {len(layer.dimensions)} dimensions, "
        f"{len(layer.joins)} joins, {len(layer.trusted_examples)} trusted examples; "
        f"{len(unmapped)} items not mapped."
    )
    left = _metrics_left_out(unmapped, measures=source_format != "metricflow")
    if left:
        click.echo(
            f"Metrics left out ({len(left)}): {', '.join(left)}. Each 'not mapped' line "
            "above says why, and what to ask instead."
        )


_LEFT_METRIC = re.compile(r"^metrics\[\d+\] \(([^)]+)\)")
_LEFT_MEASURE = re.compile(r"\.(?:measures|facts)\.([A-Za-z0-9_]+):")


def _metrics_left_out(unmapped: list[str], *, measures: bool) -> list[str]:
    """The source's metrics the import left out, each named once in the order reported (an
    outside tester found a cumulative metric missing from the layer with no line naming it
    as left out). With ``measures``, a measure or fact (Cortex, Cube) is a metric too; a
    MetricFlow measure is not (its metrics are named)."""
    names: list[str] = []
    for item in unmapped:
        found = _LEFT_METRIC.match(item) or (_LEFT_MEASURE.search(item) if measures else None)
        if found and found.group(1) not in names:
            names.append(found.group(1))
    return names


def _check_schemas(connector: Any, catalog: Any, schemas: tuple[tuple[str, str], ...]) -> list[str]:
    """Each table the source places in a schema (Cortex ``base_table.schema``) is read from that
    schema, or the import stops: a bare name that reads ``main.t`` while the model means
    ``S.t`` (both exist) would answer from the wrong table. When the database has no such
    schema table, the table of that name it does hold is used and a note says so (the
    quickstarts' data loaded into ``main``)."""
    notes = []
    for table, schema in schemas:
        info = catalog.table(table)
        if info is None:
            continue  # reported by check_against, with its path
        reads = info.schema or (catalog.schemas[0] if catalog.schemas else "main")
        if reads.lower() == schema.lower():
            continue
        try:
            there = connector.execute(
                "SELECT count(*) FROM information_schema.tables WHERE lower(table_schema) = "
                f"'{schema.lower().replace(chr(39), chr(39) * 2)}' AND lower(table_name) = "
                f"'{table.lower().replace(chr(39), chr(39) * 2)}'",
                time_limit_ms=60_000,
                max_rows=1,
            ).rows[0][0]
        except Exception:  # no information_schema (SQLite): one schema, nothing to confuse
            there = 0
        if there:
            raise SemanticError(
                f"The model reads {schema}.{table}, but the bare name {table!r} reads "
                f"{reads}.{table} in the database: answers would come from the wrong table.",
                hint=f"Drop or rename {reads}.{table}, or give a database where only "
                f"{schema} holds {table!r}.",
            )
        notes.append(
            f"table {table}: the model places it in schema {schema}, which the database does "
            f"not hold; read from {reads}.{table}"
        )
    return notes


def _absent_columns(catalog: Any, result: Any) -> Any:
    """The result with each reported field whose column the database lacks said so: OSI's
    TPC-DS example declares a time field ``d_month_name`` that TPC-DS's date_dim does not
    have; reported as "a time field beside d_date" it read as if it were there (outside
    tester, import 38). Its words stay the month grain of the dataset's first time field."""
    import dataclasses

    absent = {}
    for where, ref in result.reported_columns:
        table, _, column = ref.partition(".")
        info = catalog.table(table)
        if info is None or info.column(column) is None:
            absent[where] = (
                f"{where}: its column {ref} is not in the database (the source names a "
                f"column table {table} does not have), so it is left out; periods and time "
                "grains ('by month', 'in March 2002') are read on the dataset's first time field"
            )
    if not absent:
        return result
    unmapped = tuple(absent.get(u.split(": ", 1)[0], u) for u in result.unmapped)
    return dataclasses.replace(result, unmapped=unmapped)


def _guess_aggregates(connector: Any, catalog: Any, result: Any) -> Any:
    """Each fact the source gives without an aggregation (``result.guesses``) summed when its
    column's values allow it, as the drafter's measures are: numeric with two or more values,
    never negative, no stand-in codes (-1, 9999, ...), not an identifier nor a code, year or
    flag. Such a metric is a guess: tier PATTERN_CONFIRMED, so an answer resting on it is
    confirm-first, naming it. Every other fact is reported and made an undefined concept."""
    import dataclasses

    from assay.catalog import Tier, cap_confidence, profile_table
    from assay.catalog._schema import TableInfo
    from assay.semantic._draft import NOT_MEASURES

    if not result.guesses:
        return result
    metrics, notes = list(result.layer["metrics"]), list(result.notes)
    unmapped, undefined = list(result.unmapped), list(result.undefined)
    for guess in result.guesses:
        table, _, column = guess["column"].partition(".")
        info = catalog.table(table)
        col = info.column(column) if info is not None else None
        why = "its column is not in the database"
        if info is not None and col is not None:
            report = profile_table(connector, TableInfo(info.name, (col,))).columns
            fp = report[0].fingerprint if report else None
            best = report[0].best if report else None
            if fp is None or fp.error:
                why = "its column could not be read"
            elif fp.family not in ("integer", "decimal") or fp.n_distinct < 2:
                why = f"its values are not a quantity ({fp.family}, {fp.n_distinct} distinct)"
            elif fp.family == "integer" and fp.unique_ratio >= 0.95 and fp.n_nonnull >= 30:
                why = "its values look like an identifier (unique integers)"
            elif best is not None and best.name in NOT_MEASURES:
                why = f"its values look like a {best.name}, not a quantity"
            elif fp.stand_ins:
                why = "it holds stand-in codes (" + ", ".join(v for v, _ in fp.stand_ins) + ")"
            elif fp.numeric.get("negative_share", 0.0) > 0:
                why = "it holds negative values (a sum or an average would be a guess)"
            else:
                metric = {
                    "name": guess["name"],
                    "synonyms": guess["synonyms"],
                    "table": guess["table"],
                    "expression": f"sum({guess['column']})",
                    "tier": Tier.PATTERN_CONFIRMED.name,
                    "confidence": cap_confidence(0.7, Tier.PATTERN_CONFIRMED),
                    "fact": f"{guess['column']} summed (no aggregation given; its values are "
                    "never negative)",
                }
                if guess["time_column"]:
                    metric["time_column"] = guess["time_column"]
                metrics.append(metric)
                notes.append(
                    f"{guess['where']}: no aggregation given; summed, as its values allow "
                    "(numeric, never negative): unconfirmed, so answers resting on it are "
                    "confirm-first"
                )
                continue
        unmapped.append(f"{guess['where']}: no aggregation given, and none is guessed: {why}")
        undefined.extend([guess["name"], *guess["synonyms"]])
    layer = {**result.layer, "metrics": metrics}
    return dataclasses.replace(
        result,
        layer=layer,
        notes=tuple(notes),
        unmapped=tuple(unmapped),
        undefined=tuple(undefined),
        guesses=(),
    )


def _read_values(connector: Any, catalog: Any, raw: dict[str, Any]) -> list[str]:
    """Each imported dimension given the values its column holds when its domain is closed
    (text, not PII, at most 20 values: ``assay.catalog.dimension_values``), so a question
    filtering on a value reads it; notes saying, per dimension left without values, why (a
    question filtering on it is then asked back, never answered unfiltered)."""
    from assay.catalog import dimension_values
    from assay.semantic._draft import common_word_values

    # an expression dimension has no column to read values from: grouped by, never filtered
    dims = [d for d in raw.get("dimensions", []) if not d.get("values") and not d.get("expression")]
    if not dims:
        return []
    values, why = dimension_values(connector, catalog, [d["column"] for d in dims])
    notes = []
    for dim in dims:
        found = values.get(dim["column"])
        common = common_word_values(found or ())
        if found and not common:
            dim["values"] = list(found)
            continue
        reason = why.get(dim["column"], "not read")
        if reason in _NOT_LISTED:
            notes.append(_unlisted(connector, catalog, dim, _NOT_LISTED[reason]))
            continue
        if common:
            reason = f"{', '.join(common)} would be read as a value in passing"
        notes.append(
            f"dimension {dim['name']} ({dim['column']}): no values read ({reason}); a "
            "question filtering on a value of it is not answered"
        )
    listed = [d for d in dims if why.get(d["column"]) not in _NOT_LISTED]
    kept = sum(1 for d in listed if d.get("values"))
    head = f"values read from the data for {kept} of {len(listed)} dimensions"
    if len(listed) < len(dims):
        head += f" ({len(dims) - len(listed)} more are numbers or true/false: none to list)"
    return [head, *notes]


# A dimension the import never lists values for, by what its column holds: nothing failed.
_NOT_LISTED = {
    "not text (integer)": "number",
    "not text (decimal)": "number",
    "not text (boolean)": "flag",
}


def _unlisted(connector: Any, catalog: Any, dim: dict[str, Any], kind: str) -> str:
    """What is true of a number or true/false dimension, said instead of "no values read" (as
    if reading them had failed: outside tester, import 38): a number's range, read in the
    engine, and how a question uses it; a flag's two values."""
    from assay.answer import spoken_name

    words = spoken_name(dim["name"]).lower()
    where = f"dimension {dim['name']} ({dim['column']})"
    if kind == "flag":
        return (
            f"{where}: true or false, so there is no list of values to read; group by it "
            f"('by {words}')"
        )
    table, _, column = dim["column"].partition(".")
    info = catalog.table(table)
    col = info.column(column) if info is not None else None
    span = ""
    if info is not None and col is not None:
        try:
            rows = connector.execute(
                f'SELECT min("{col.name}"), max("{col.name}") FROM "{info.name}"',
                time_limit_ms=60_000,
                max_rows=1,
            ).rows
        except Exception:  # the range is only said; a failure leaves it unsaid
            rows = []
        if rows and rows[0][0] is not None and rows[0][0] == rows[0][1]:
            span = f" (only {_plain(rows[0][0])} in the data)"
        elif rows and rows[0][0] is not None:
            span = f" from {_plain(rows[0][0])} to {_plain(rows[0][1])}"
    return (
        f"{where}: numbers{span}, so there is no list of values to read; group by it "
        f"('by {words}') or bound it ('{words} above N', '{words} between N and M')"
    )


def _plain(value: Any) -> str:
    """A number as a person writes it: ``3``, ``2.5``, never ``3.0`` or ``Decimal('2.50')``."""
    from decimal import Decimal

    if isinstance(value, (float, Decimal)) and value == int(value):
        return str(int(value))
    return str(value.normalize() if isinstance(value, Decimal) else value)


def _need_metrics(result: Any, source: Path) -> None:
    if not result.layer.get("metrics"):
        about = ("metric ", "metrics[", ".measures.", ".facts.")
        ranked = sorted(result.unmapped, key=lambda u: not any(w in u for w in about))
        raise SemanticError(
            f"No metric could be mapped from {str(source)!r}; an Assay layer needs at least one. "
            + "Not mapped: "
            + "; ".join(ranked[:8])
            + ("; ..." if len(ranked) > 8 else "")
            + ".",
            hint="Give each measure an aggregation the source format declares (for Cortex "
            "Analyst, 'default_aggregation'), or write the layer with 'assay semantic init'.",
            details={"problems": list(result.unmapped)},
        )


def _time_join(layer: dict[str, Any], table: str, time_table: str) -> tuple[str, str] | None:
    """The columns of a direct join from ``table`` to ``time_table``, or ``None``."""
    for j in layer.get("joins", []):
        if j["left"].split(".")[0] == table and j["right"].split(".")[0] == time_table:
            return j["left"].split(".", 1)[1], j["right"].split(".", 1)[1]
    return None


def _untime_undated(connector: Any, catalog: Any, result: Any) -> Any:
    """The result with a note for each metric timed through a join that leaves rows of its
    table without a date (OSI's store_sales rows with no ss_sold_date_sk). It stays timed:
    the join is marked ``unmatched`` below, so a period joins the calendar inner (a row with
    no date is in no period), a time grain LEFT joins it (those rows a NULL period of their
    own), and a total over all dates never joins it (outside tryout 22: made untimed, every
    "in 2001" and "by year" abstained)."""
    import dataclasses

    undated = []
    for metric in result.layer["metrics"]:
        time_column = metric.get("time_column") or ""
        time_table = time_column.split(".")[0]
        join = _time_join(result.layer, metric["table"], time_table)
        if not time_column or time_table == metric["table"] or join is None:
            continue
        if catalog.table(metric["table"]) is None or catalog.table(time_table) is None:
            continue  # reported by check_against, with its path
        rows = connector.execute(
            f'SELECT count(*) FROM "{metric["table"]}" AS m LEFT JOIN "{time_table}" AS t '
            f'ON m."{join[0]}" = t."{join[1]}" WHERE t."{join[1]}" IS NULL',
            time_limit_ms=60_000,
            max_rows=1,
        ).rows
        missing = rows[0][0] if rows else None
        if missing:
            undated.append(
                f"metric {metric['name']}: timed by {time_column}, but {missing} rows of "
                f"{metric['table']} have no date there: in no period, a NULL period of a time "
                "grain, counted in a total over all dates"
            )
    if not undated:
        return result
    return dataclasses.replace(result, notes=(*result.notes, *undated))


def _own_coverage(
    metrics: list[dict[str, Any]],
    spans: dict[tuple[str, str], tuple[Any, Any]],
    layer: tuple[Any, Any],
) -> None:
    """Each timed metric whose own rows cover less than the layer does gets its own coverage
    (the Cube workshop's orders end in August 1998, its line items in December: "orders count
    last month" must not be a confident 0)."""
    for metric in metrics:
        span = spans.get((metric["table"], metric.get("time_column", "")))
        if span is not None and span != layer:
            metric["coverage"] = {"start": span[0], "end": span[1]}


def _date_ranges(layer: dict[str, Any], catalog: Any) -> list[tuple[tuple[str, str], str]]:
    """One query per metric time column for its first and last date, with the (table, time
    column) pair it ranges. A time column on another table than its metric's (OSI's
    ``date_dim.d_date``) is ranged over the rows its metric joins to, not over the whole
    calendar table."""
    out: list[tuple[tuple[str, str], str]] = []
    pairs = {(m["table"], m["time_column"]) for m in layer["metrics"] if m.get("time_column")}
    for table, column in sorted(pairs):
        time_table, name = column.split(".", 1)
        if catalog.table(time_table) is None or catalog.table(table) is None:
            continue  # reported by check_against, with its path
        span = f'min(CAST(t."{name}" AS DATE)), max(CAST(t."{name}" AS DATE))'
        join = _time_join(layer, table, time_table)
        if time_table == table or join is None:
            out.append(((table, column), f'SELECT {span} FROM "{time_table}" AS t'))
        else:
            lc, rc = join
            out.append(
                (
                    (table, column),
                    f'SELECT {span} FROM "{table}" AS m JOIN "{time_table}" AS t '
                    f'ON m."{lc}" = t."{rc}"',
                )
            )
    return out


def _phrase(name: str) -> str:
    return " ".join(name.replace("_", " ").lower().split())


def _undefined_phrases(names: tuple[str, ...], raw: dict[str, Any]) -> list[str]:
    """The source's unmapped metric and dimension names as undefined concepts, leaving out
    any phrase that also names something the layer maps (that one is defined)."""
    taken = set()
    for item in [*raw.get("metrics", []), *raw.get("dimensions", [])]:
        for text in [item["name"], item.get("label", ""), *item.get("synonyms", [])]:
            taken.add(_phrase(str(text)))
    out: list[str] = []
    for name in names:
        phrase = _phrase(name)
        if phrase and phrase not in taken and phrase not in out:
            out.append(phrase)
    return out


def _guarded_examples(
    connector: Any, layer: Any, examples: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[str]]:
    """The trusted examples whose SQL passes the guard and runs on the data, and a report line
    for each one that does not (fail closed: an example that cannot be checked is not kept)."""
    from assay.pipeline._guarded import run_sql
    from assay.settings import load_settings

    settings = load_settings()
    catalog = connector.catalog()
    kept: list[dict[str, Any]] = []
    refused: list[str] = []
    for i, example in enumerate(examples):
        where = f"trusted_examples[{i}] ({example.get('name') or example['question']})"
        try:
            run = run_sql(example["sql"], connector, settings, semantic=layer, catalog=catalog)
        except Exception as exc:  # the engine failed on it: not kept
            refused.append(f"{where}: its SQL fails on the data ({type(exc).__name__}: {exc})")
            continue
        if run.result is None:
            reasons = "; ".join(f"{v.code}: {v.message}" for v in run.report.violations)
            refused.append(f"{where}: the guard refuses its SQL ({reasons or 'no reason given'})")
            continue
        kept.append(example)
    return kept, refused


def _orphan_joins(connector: Any, joins: list[dict[str, str]]) -> list[tuple[dict[str, str], int]]:
    """The joins that leave rows of their many side without a partner (a NULL or missing
    key), with how many: joined inner, a total or breakdown through one would drop those rows
    silently (OSI's store_sales rows without ss_store_sk vanished from "total sales by store
    state"; found by an outside tryout), so the import marks it ``unmatched`` and only a
    positive filter on the partner's columns may take it. A join that cannot be checked
    (-1) is forbidden."""
    out = []
    for j in joins:
        (lt, lc), (rt, rc) = j["left"].split(".", 1), j["right"].split(".", 1)
        try:
            rows = connector.execute(
                f'SELECT count(*) FROM "{lt}" AS l LEFT JOIN "{rt}" AS r '
                f'ON l."{lc}" = r."{rc}" WHERE r."{rc}" IS NULL',
                time_limit_ms=60_000,
                max_rows=1,
            ).rows
        except Exception:  # an unverifiable join is not trusted
            out.append((j, -1))
            continue
        if rows and rows[0][0]:
            out.append((j, int(rows[0][0])))
    return out


def _fanning_joins(connector: Any, joins: list[dict[str, str]]) -> set[str]:
    """The join targets (``table.column``) that are not unique in the data."""
    fanning = set()
    for right in sorted({j["right"] for j in joins}):
        table, column = right.split(".", 1)
        try:
            rows = connector.execute(
                f'SELECT count("{column}"), count(DISTINCT "{column}") FROM "{table}"',
                time_limit_ms=60_000,
                max_rows=1,
            ).rows
        except Exception:  # an unverifiable join is not trusted
            fanning.add(right)
            continue
        if not rows or rows[0][0] != rows[0][1]:
            fanning.add(right)
    return fanning
