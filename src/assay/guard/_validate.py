"""``validate``: the first wall. Parse in the engine's dialect, run every rule, regenerate.

The guard never raises for bad SQL: it returns a ``GuardReport`` listing every violation, and
only a boundary (the CLI, the pipeline) turns a refusal into an error. Any surprise inside a
rule is itself a violation (fail closed).
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace

import sqlglot
from sqlglot import exp
from sqlglot.errors import ErrorLevel, ParseError
from sqlglot.tokenizer_core import TokenType

from assay.catalog import Catalog
from assay.guard._changes import statement_change
from assay.guard._context import GuardContext
from assay.guard._report import GuardReport, Violation
from assay.guard._rules import RECHECK_RULES, TEXT_RULES, TREE_RULES
from assay.guard._spark import validate_spark
from assay.semantic import SemanticLayer
from assay.settings import DEFAULTS

__all__ = ["DIALECTS", "validate"]

# Assay dialect name -> sqlglot dialect name.
DIALECTS: dict[str, str] = {
    "duckdb": "duckdb",
    "sqlite": "sqlite",
    "postgres": "postgres",
    "spark": "spark",  # Spark's own lists and rules: guard/_spark.py
}

DEFAULT_MAX_SQL_BYTES = DEFAULTS.max_sql_bytes
_MAYBE_EXPLAIN = re.compile(r"\s*(?:(?:--[^\n]*(?:\n|$)|/\*.*?\*/)\s*)*explain\b", re.I | re.S)


class _Quiet(logging.Filter):
    """sqlglot logs a warning when it falls back to ``exp.Command``; the guard reports it."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return "Falling back to parsing as a 'Command'" not in message and (
            "are not supported" not in message
        )


logging.getLogger("sqlglot").addFilter(_Quiet())


def validate(
    sql: str,
    *,
    catalog: Catalog | None,
    dialect: str,
    semantic: SemanticLayer | None = None,
    max_sql_bytes: int = DEFAULT_MAX_SQL_BYTES,
) -> GuardReport:
    """Check one statement against every guard rule.

    Args:
        sql: the statement as written.
        catalog: the database's tables; ``None`` skips the table and column rules.
        dialect: ``duckdb``, ``sqlite`` or ``postgres``; parsing uses exactly this dialect.
        semantic: when given, retired columns and forbidden joins are checked too.
        max_sql_bytes: the size limit.

    Returns:
        A report whose ``sql`` is the statement regenerated from the checked tree (comments
        dropped) when no rule was broken, else ``None``.

    Example:
        >>> validate("SELECT 1 AS x", catalog=None, dialect="duckdb").sql
        'SELECT 1 AS x'
        >>> validate("DROP TABLE t", catalog=None, dialect="duckdb").codes
        ('guard.forbidden_statement',)
    """
    try:
        return _validate(sql, catalog, dialect, semantic, max_sql_bytes)
    except Exception as exc:  # fail closed: the guard never raises, whatever the input
        violation = Violation(
            "guard.internal_error",
            f"The guard could not check this statement ({type(exc).__name__}); it is refused. "
            "Simplify the query.",
        )
        return GuardReport(sql, dialect, (violation,), None)


def _validate(
    sql: str,
    catalog: Catalog | None,
    dialect: str,
    semantic: SemanticLayer | None,
    max_sql_bytes: int,
) -> GuardReport:
    if dialect == "spark":
        return validate_spark(sql, catalog=catalog, max_sql_bytes=max_sql_bytes)
    if dialect not in DIALECTS:
        known = ", ".join(sorted(DIALECTS))
        violation = Violation(
            "guard.unknown_dialect", f"Unknown dialect {dialect!r}; use one of {known}."
        )
        return GuardReport(sql, dialect, (violation,), None)
    ctx = GuardContext(sql, dialect, catalog, semantic, max_sql_bytes)
    violations = _run(TEXT_RULES, ctx)
    if violations:
        return GuardReport(sql, dialect, tuple(violations), None)
    ctx, parse_violations = _parse(ctx)
    if parse_violations:
        return GuardReport(sql, dialect, tuple(parse_violations), None)
    if dialect == "sqlite":
        ctx = _sqlite_string_identifiers(ctx)
    violations = _run(TREE_RULES[:1], ctx)
    if not violations:
        violations = _run(TREE_RULES[1:], ctx)
    # A warning (a rule that could only note, knowing too little to refuse) never refuses: it
    # is reported beside the statement that runs.
    warnings = tuple(v for v in violations if v.severity == "warning")
    violations = [v for v in violations if v.severity != "warning"]
    if not violations and ctx.analysis.error is not None:
        violations = [_analysis_violation(ctx.analysis.error)]
    if violations:
        return GuardReport(sql, dialect, (*violations, *warnings), None)
    regenerated = _regenerate(ctx)
    again = _recheck(regenerated, ctx)
    if again:
        return GuardReport(sql, dialect, (*again, *warnings), None)
    engine = _engine_check(sql, regenerated, dialect, ctx.explain)
    if engine:
        return GuardReport(sql, dialect, (*engine, *warnings), None)
    return GuardReport(sql, dialect, warnings, regenerated)


def _run(rules: tuple[object, ...], ctx: GuardContext) -> list[Violation]:
    found: list[Violation] = []
    for rule in rules:
        try:
            found.extend(rule(ctx))  # type: ignore[operator]
        except Exception as exc:  # fail closed: a rule that breaks refuses the statement
            name = getattr(rule, "__name__", "rule")
            found.append(
                Violation(
                    "guard.internal_error",
                    f"Guard rule {name} could not check this statement ({type(exc).__name__}); "
                    "it is refused. Simplify the query.",
                )
            )
    return found


def _split_explain(sql: str, dialect: str) -> tuple[str, bool, Violation | None]:
    """Strip a leading plain ``EXPLAIN``; refuse ``EXPLAIN ANALYZE`` and options."""
    if not _MAYBE_EXPLAIN.match(sql):
        return sql, False, None  # a missed EXPLAIN parses as a Command, which is refused
    tokenizer = sqlglot.Dialect.get_or_raise(DIALECTS[dialect])
    try:
        tokens = tokenizer.tokenize(sql)
    except Exception:  # the tokenizer can fail on odd text; the parser then refuses it
        return sql, False, None
    if not tokens or tokens[0].text.upper() != "EXPLAIN":
        return sql, False, None
    # Some dialects tokenize EXPLAIN as a command and the rest as one string: re-tokenize it.
    body = sql[tokens[0].end + 1 :]
    try:
        rest = tokenizer.tokenize(body)
    except Exception:  # as above
        rest = []
    if not rest:
        return sql, False, Violation("guard.explain", "EXPLAIN needs a query after it.")
    nxt = rest[0]
    if (
        dialect == "sqlite"
        and len(rest) > 2
        and nxt.text.upper() == "QUERY"
        and rest[1].text.upper() == "PLAN"
    ):
        return body[rest[1].end + 1 :], True, None  # SQLite's plan, which runs nothing
    if nxt.text.upper() in {"ANALYZE", "ANALYSE", "VERBOSE", "QUERY", "EXPLAIN"} or (
        nxt.token_type == TokenType.L_PAREN
        and len(rest) > 1
        and rest[1].token_type != (TokenType.SELECT)
    ):
        return (
            sql,
            False,
            Violation(
                "guard.explain_analyze",
                "EXPLAIN ANALYZE and EXPLAIN options execute or change the query; "
                "use plain EXPLAIN.",
            ),
        )
    return body, True, None


def _parse(ctx: GuardContext) -> tuple[GuardContext, list[Violation]]:
    if ctx.sql.lstrip().startswith("```"):
        # A model's answer in a Markdown fence: the fence would parse as a quoted name
        # (outside tryout 14 was told "this statement is COLUMN").
        return ctx, [
            Violation(
                "guard.parse_error",
                "The SQL is wrapped in a Markdown code fence (```); send the statement alone, "
                "without the fence.",
            )
        ]
    body, explain, problem = _split_explain(ctx.sql, ctx.dialect)
    if problem is not None:
        return ctx, [problem]
    try:
        parsed = sqlglot.parse(body, read=DIALECTS[ctx.dialect], error_level=ErrorLevel.RAISE)
    except ParseError as exc:
        change = statement_change(body, DIALECTS[ctx.dialect])
        if change is not None:  # EXPORT DATABASE: a change sqlglot cannot parse, not a typo
            return ctx, [
                Violation(
                    "guard.forbidden_statement",
                    f"Only read-only queries may run; this statement is {change.statement}, "
                    f"which {change.does}, not a query. Rewrite it as a SELECT.",
                )
            ]
        first = exc.errors[0] if exc.errors else {}
        description = str(first.get("description") or exc).split("\n")[0]
        if "<class" in description:  # the parser's own classes mean nothing to a reader
            description = "a keyword or an expression is missing"
        near = str(first.get("highlight") or "").strip()[:40]
        where = f" near {near!r}" if near else ""
        if first.get("line") is not None and first.get("col") is not None:
            where += f" (line {first['line']}, column {first['col']})"
        return ctx, [
            Violation(
                "guard.parse_error",
                f"SQL does not parse as {ctx.dialect}{where}: {description}. Fix the syntax.",
                first.get("line"),
                first.get("col"),
            )
        ]
    except Exception as exc:  # sqlglot itself can fail on odd text (TypeError, ...): refuse
        return ctx, [
            Violation(
                "guard.parse_error",
                f"SQL does not parse as {ctx.dialect}: {type(exc).__name__}. Fix the syntax.",
            )
        ]
    # A trailing comment after the last ``;`` parses as a Semicolon node: not a statement.
    statements = [s for s in parsed if s is not None and not isinstance(s, exp.Semicolon)]
    tree = statements[0] if len(statements) == 1 else None
    return replace(ctx, tree=tree, explain=explain, n_statements=len(statements)), []


def _analysis_violation(error: str) -> Violation:
    return Violation(
        "guard.unresolvable",
        f"The query's names cannot be resolved ({error}); a table may be joined twice under "
        "one name. Give each FROM item its own alias.",
    )


def _recheck(regenerated: str, ctx: GuardContext) -> list[Violation]:
    """Run the tree rules again on the regenerated text, which is what will execute: sqlglot
    may spell a function differently (``space(n)`` becomes ``REPEAT(' ', n)``)."""
    body = regenerated[len(_explain_words(ctx)) + 1 :] if ctx.explain else regenerated
    try:
        again = sqlglot.parse(body, read=DIALECTS[ctx.dialect], error_level=ErrorLevel.RAISE)
    except Exception as exc:  # what the guard wrote must parse again; else refuse
        return [
            Violation(
                "guard.engine_disagrees",
                f"The regenerated query does not parse again ({type(exc).__name__}); refused.",
            )
        ]
    statements = [s for s in again if s is not None and not isinstance(s, exp.Semicolon)]
    if len(statements) != 1:
        return [Violation("guard.engine_disagrees", "The regenerated query is not one statement.")]
    fresh = replace(ctx, sql=body, tree=statements[0], n_statements=1)
    return _run(RECHECK_RULES, fresh)


def _sqlite_string_identifiers(ctx: GuardContext) -> GuardContext:
    """SQLite reads a double-quoted name that matches no column as a string ("France"); make
    the tree say so, as the engine will, so the column rule does not refuse it."""
    if ctx.tree is None or ctx.catalog is None:
        return ctx
    changed = False
    for ref in ctx.column_refs:
        node = ref.node
        if ref.status == "unknown_column" and not node.table and node.this.args.get("quoted"):
            node.replace(exp.Literal.string(node.name))
            changed = True
    if not changed:
        return ctx
    return replace(ctx, tree=ctx.tree)  # a new context: cached scopes and columns are stale


def _regenerate(ctx: GuardContext) -> str:
    assert ctx.tree is not None
    # copy=False: the tree is not used after this, and copying it doubles the cost.
    body = ctx.tree.sql(dialect=DIALECTS[ctx.dialect], comments=False, copy=False)
    return f"{_explain_words(ctx)} {body}" if ctx.explain else body


def _explain_words(ctx: GuardContext) -> str:
    return "EXPLAIN QUERY PLAN" if ctx.dialect == "sqlite" else "EXPLAIN"


def _engine_check(original: str, regenerated: str, dialect: str, explain: bool) -> list[Violation]:
    """Cross-check with the engine's own parser, which must see one read-only statement."""
    if dialect == "duckdb":
        return _duckdb_check(original, regenerated, explain)
    if dialect == "postgres":
        return _postgres_check(original, regenerated, explain)
    return []


def _duckdb_check(original: str, regenerated: str, explain: bool) -> list[Violation]:
    import duckdb

    wanted = duckdb.StatementType.EXPLAIN if explain else duckdb.StatementType.SELECT
    for label, text in (("original", original), ("regenerated", regenerated)):
        try:
            statements = duckdb.extract_statements(text)
        except duckdb.Error as exc:
            if label == "original":
                continue  # sqlglot accepted a spelling DuckDB does not; the regenerated text runs
            return [_engine_violation(f"DuckDB cannot parse the checked query: {exc}")]
        if len(statements) != 1 or statements[0].type != wanted:
            kinds = ", ".join(str(s.type).split(".")[-1] for s in statements)
            return [
                _engine_violation(
                    f"DuckDB's parser sees {len(statements)} statement(s) ({kinds}) in the "
                    f"{label} text where the guard saw one query; it is refused."
                )
            ]
    return []


def _postgres_check(original: str, regenerated: str, explain: bool) -> list[Violation]:
    try:
        import pglast
    except ImportError:  # optional: the [postgres] extra brings it
        return []
    wanted = "ExplainStmt" if explain else "SelectStmt"
    for label, text in (("original", original), ("regenerated", regenerated)):
        try:
            statements = pglast.parse_sql(text)
        except pglast.parser.ParseError as exc:
            if label == "original":
                continue
            return [_engine_violation(f"PostgreSQL cannot parse the checked query: {exc}")]
        kinds = [type(s.stmt).__name__ for s in statements]
        if kinds != [wanted]:
            return [
                _engine_violation(
                    f"PostgreSQL's parser sees {len(kinds)} statement(s) ({', '.join(kinds)}) "
                    f"in the {label} text where the guard saw one query; it is refused."
                )
            ]
    return []


def _engine_violation(message: str) -> Violation:
    return Violation("guard.engine_disagrees", message)
