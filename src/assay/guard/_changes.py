"""``statement_change``: what a statement would change, or touch outside the database, if run.

The guard refuses every statement that is not a query. Among those, a statement that would
change data, schema or settings, touch files, load code or open another database is a
prohibited action: ``/api/sql`` refuses it (``"behaviour": "refuse"``), as ``/api/ask`` refuses a
question asking for a change, and the guard's message says what it would do. Any other refusal
(an unknown table, a catalogue view) is an answer withheld.

One classification, in two tables: by sqlglot node, and by leading keyword for the statements
sqlglot keeps as text (``exp.Command``: ``LOAD``, ``CALL``, ``VACUUM``) or cannot parse at all
(DuckDB's ``EXPORT DATABASE`` and ``IMPORT DATABASE``). Outside tryout 36 saw ``TRUNCATE`` and
``COPY orders FROM 'file'`` withheld as answers while ``DELETE`` was refused. A query that
names a file as a table (``FROM 'rows.csv'``) or calls a function that reads or writes files or
reaches another database (``read_csv``, ``pg_read_file``, ``sqlite_scan``) touches what lies
outside the database too, and is refused alike (it was an answer withheld).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sqlglot
from sqlglot import exp

from assay.guard._allowlists import ALLOWED_FUNCTION_TYPES, ALLOWED_NODE_TYPES, REFUSED_FUNCTIONS

__all__ = ["FILE_LIKE", "Change", "statement_change", "tree_change"]

# A FROM item naming a file or URL (DuckDB reads ``FROM 'data.csv'``).
FILE_LIKE = re.compile(
    r"[/\\:]|\.(csv|tsv|parquet|json|jsonl|ndjson|txt|db|duckdb|sqlite|xlsx|gz|zst)$", re.I
)


@dataclass(frozen=True)
class Change:
    """A statement that would change something: its kind as written and what it does."""

    statement: str  # "TRUNCATE", "COPY", "SELECT ... INTO"
    does: str  # "deletes every row of a table"

    def __str__(self) -> str:
        return f"{self.statement} ({self.does})"


_ROWS = "changes rows"
_SCHEMA = "changes the schema"
_SETTING = "changes a setting"

# Statements sqlglot parses into a node of their own.
_NODES: dict[type[exp.Expr], Change] = {
    exp.Insert: Change("INSERT", "adds rows"),
    exp.Update: Change("UPDATE", _ROWS),
    exp.Delete: Change("DELETE", "deletes rows"),
    exp.Merge: Change("MERGE", _ROWS),
    exp.TruncateTable: Change("TRUNCATE", "deletes every row of a table"),
    exp.Create: Change("CREATE", _SCHEMA),
    exp.Drop: Change("DROP", _SCHEMA),
    exp.Alter: Change("ALTER", _SCHEMA),
    exp.Into: Change("SELECT ... INTO", "creates a table"),
    exp.Copy: Change("COPY", "reads or writes a file"),
    exp.Attach: Change("ATTACH", "opens another database"),
    exp.Detach: Change("DETACH", "closes an attached database"),
    exp.Install: Change("INSTALL", "installs an extension"),
    exp.Set: Change("SET", _SETTING),
    exp.Use: Change("USE", "changes the session's database"),
    exp.Grant: Change("GRANT", "changes permissions"),
    exp.Revoke: Change("REVOKE", "changes permissions"),
    exp.Comment: Change("COMMENT", _SCHEMA),
    exp.Analyze: Change("ANALYZE", "writes the engine's statistics"),
}

# Statements by their first keyword, where sqlglot keeps them as text or cannot parse them.
_KEYWORDS: dict[str, str] = {
    **{c.statement: c.does for c in _NODES.values() if " " not in c.statement},
    "UPSERT": _ROWS,
    "REPLACE": _ROWS,
    "FORCE": "installs an extension",  # FORCE INSTALL
    "LOAD": "loads an extension",
    "CALL": "runs a procedure or table function",
    "EXPORT": "writes the database to files",
    "IMPORT": "loads a database from files",
    "RESET": _SETTING,
    "PRAGMA": _SETTING,
    "VACUUM": "rewrites the database file",
    "CHECKPOINT": "writes the database file",
    "REINDEX": "rebuilds indexes",
    "CLUSTER": "rewrites a table",
    "REFRESH": "rewrites a materialized view",
    "LOCK": "locks a table",
}

# What a refused function does that makes a query calling it a prohibited action (the others,
# catalogue and environment readers, only read: an answer withheld). Loading native code is one,
# as docs/api.md says (outside tryout 41, F9: SQLite's load_extension() was withheld).
_OUTSIDE = frozenset(
    {
        "reads files",
        "writes files or large objects",
        "reaches another database or the network",
        "loads native code",
    }
)

# PRAGMAs that only read (DuckDB's and SQLite's); any other, and any that assigns, changes a
# setting (fail closed: a PRAGMA of unknown effect is not taken for a read).
_READ_PRAGMAS = frozenset(
    """
    table_info table_xinfo table_list show show_tables show_tables_expanded show_databases
    database_list database_size storage_info metadata_info version platform user_agent functions
    collations collation_list function_list module_list pragma_list compile_options index_list
    index_info index_xinfo foreign_key_list
    """.split()
)


def statement_change(sql: str, dialect: str) -> Change | None:
    """What ``sql`` would change if run, or ``None`` for a read (or text that names no change).

    Example:
        >>> str(statement_change("TRUNCATE orders", "duckdb"))
        'TRUNCATE (deletes every row of a table)'
        >>> statement_change("EXPORT DATABASE 'out'", "duckdb").statement
        'EXPORT'
        >>> statement_change("SELECT 1", "duckdb") is None
        True
    """
    try:
        trees = sqlglot.parse(sql, read=dialect or None)
    except sqlglot.errors.SqlglotError:
        return _keyword_change(sql, dialect)
    for tree in trees:
        change = tree_change(tree) if tree is not None else None
        if change is not None:
            return change
    return None


def tree_change(tree: exp.Expr) -> Change | None:
    """What a parsed statement would change, or ``None`` for a read."""
    if isinstance(tree, exp.Command):
        keyword = str(tree.this).upper()
        rest = str(tree.expression.this) if isinstance(tree.expression, exp.Literal) else ""
        if keyword == "EXPLAIN":  # EXPLAIN ANALYZE runs the statement it explains
            words = rest.split(None, 1)
            if len(words) == 2 and words[0].upper() == "ANALYZE":
                return _keyword_change(words[1], "")
            return None
        does = _KEYWORDS.get(keyword)
        return Change(keyword, does) if does is not None else None
    if isinstance(tree, exp.Pragma):
        return _pragma_change(tree)
    if isinstance(tree, exp.Column) and tree.name.upper() in _KEYWORDS:
        return Change(tree.name.upper(), _KEYWORDS[tree.name.upper()])  # CHECKPOINT, alone
    for node in tree.walk():
        change = _NODES.get(type(node))
        if change is not None:
            return change
    return _outside_call(tree)


def _outside_call(tree: exp.Expr) -> Change | None:
    """A FROM item naming a file, or a call of a function that touches files or another
    database, in ``tree``."""
    for table in tree.find_all(exp.Table):
        if isinstance(table.this, exp.Identifier) and FILE_LIKE.search(table.name):
            return Change(f"FROM {table.name!r}", "reads a file")
    for node in tree.find_all(exp.Func):
        kind = type(node).__name__
        if kind in ALLOWED_FUNCTION_TYPES or kind in ALLOWED_NODE_TYPES:
            continue  # a typed function the guard allows, whatever sqlglot calls it
        name = (
            str(node.name).lower() if isinstance(node, exp.Anonymous) else node.sql_name().lower()
        )
        does = REFUSED_FUNCTIONS.get(name)
        if does in _OUTSIDE:
            return Change(f"{name}()", str(does))
    return None


def _pragma_change(tree: exp.Pragma) -> Change | None:
    target = tree.this
    if isinstance(target, (exp.Anonymous, exp.Column)) and target.name.lower() in _READ_PRAGMAS:
        return None
    return Change("PRAGMA", _SETTING)


def _keyword_change(sql: str, dialect: str) -> Change | None:
    """The change a statement's first keyword names, for text sqlglot cannot parse."""
    try:
        tokens = sqlglot.tokenize(sql, read=dialect or None)
    except sqlglot.errors.SqlglotError:
        return None
    if not tokens:
        return None
    keyword = tokens[0].text.upper()
    does = _KEYWORDS.get(keyword)
    return Change(keyword, does) if does is not None else None
