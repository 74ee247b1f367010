"""Delexicalised prefixes: the run as the heads read it with its database's own words masked.

A text head trained on a few databases learns their table and column names and their literal
values, which say nothing on a database it never saw. ``delexicalise_run`` rewrites every text
field of a run, before rendering, with typed placeholders:

- SQL (the steps' queries and the committed query) is parsed with sqlglot in the run's dialect
  and each identifier is replaced by its syntactic role: ``TABLE`` (a table reference, known to
  the schema or not), ``COLUMN``, ``ALIAS`` (a table or output alias), ``DB`` (a database
  qualifier), ``NAME`` (any other identifier); string literals become ``'STR'`` and numbers
  ``NUM``. Keywords, functions, operators and the query's shape are kept. SQL that does not parse
  is masked token by token (sqlglot's tokenizer) with the schema's names and the literals.
- Free text (the question, thoughts, observations) has the schema's table and column names
  (whole words, case-insensitive, a trailing plural ``s`` allowed) replaced by ``TABLE`` and
  ``COLUMN``, the database's name by ``DB``, quoted strings by ``STR`` (a quoted schema name by
  its type) and numbers by ``NUM``.
- Error texts keep their wording and error codes; names inside quotes are masked as above, and a
  quoted single identifier the schema does not know becomes ``NAME``.

Row counts, column counts, step structure and the final line are untouched, and the Appendix I
features are computed on the raw run (they read the schema themselves). Every function is cached
per (text, lexicon) so that a live monitor re-reading a growing run pays only for its new step.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError
from sqlglot.tokenizer_core import TokenType
from sqlglot.tokens import Tokenizer

from assay.catalog import Catalog
from assay.monitor._trajectory import Run, Step

__all__ = ["PLACEHOLDERS", "Lexicon", "clear_caches", "delexicalise_run", "lexicon"]

PLACEHOLDERS = ("TABLE", "COLUMN", "ALIAS", "DB", "NAME", "STR", "NUM")
_CACHE = 65536


@dataclass(frozen=True)
class Lexicon:
    """The names of one database, lower-cased: what delexicalisation masks."""

    database: str
    tables: frozenset[str]
    columns: frozenset[str]

    def kind(self, word: str) -> str | None:
        """``TABLE``, ``COLUMN``, ``DB`` or None for a word (a trailing plural s allowed)."""
        w = word.lower()
        for candidate in (w, w[:-1] if len(w) > 3 and w.endswith("s") else None):
            if candidate is None:
                continue
            if candidate in self.tables:
                return "TABLE"
            if candidate in self.columns:
                return "COLUMN"
            if candidate == self.database:
                return "DB"
        return None


def lexicon(catalog: Catalog, database: str) -> Lexicon:
    """The lexicon of ``catalog`` (the run's database name masked too)."""
    return Lexicon(
        database.lower(),
        frozenset(t.name.lower() for t in catalog.tables),
        frozenset(c.name.lower() for t in catalog.tables for c in t.columns),
    )


def delexicalise_run(run: Run, lex: Lexicon) -> Run:
    """The run with every text field delexicalised (see the module docstring).

    Example:
        >>> lex = Lexicon("zoo", frozenset({"pets"}), frozenset({"name", "age"}))
        >>> r = Run("r", "Name of pets older than 3?", "zoo",
        ...         (Step("sql", sql="SELECT name FROM pets WHERE age > 3", row_count=0),))
        >>> d = delexicalise_run(r, lex)
        >>> d.question, d.steps[0].sql
        ('COLUMN of TABLE older than NUM?', 'SELECT COLUMN FROM TABLE WHERE COLUMN > NUM')
    """
    dialect = _dialect(run.dialect)
    steps = tuple(_step(s, lex, dialect) for s in run.steps)
    return replace(
        run,
        question=_text(run.question, lex),
        steps=steps,
        final_sql=None if run.final_sql is None else _sql(run.final_sql, lex, dialect),
    )


def _step(step: Step, lex: Lexicon, dialect: str) -> Step:
    return replace(
        step,
        thought=_text(step.thought, lex),
        sql=None if step.sql is None else _sql(step.sql, lex, dialect),
        observation=_text(step.observation, lex),
        error=None if step.error is None else _error(step.error, lex),
    )


def clear_caches() -> None:
    """Forget every cached masking (a benchmark times delexicalisation from cold)."""
    for cached in (_text, _error, _sql):
        cached.cache_clear()


def _dialect(dialect: str) -> str:
    return dialect if dialect in {"mysql", "sqlite", "duckdb", "postgres"} else "sqlite"


# A quoted string opens and closes at a non-word boundary (so "I'll" and "doesn't" are not
# quotes); numbers stand alone (not "T1", not part of a dotted name).
_QUOTED = re.compile(r"(?<!\w)(['\"`])([^'\"`\n]{0,200}?)\1(?!\w)")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?![\w.]*\w)")


def _words(text: str, lex: Lexicon) -> str:
    text = _WORD.sub(lambda m: lex.kind(m.group(0)) or m.group(0), text)
    return _NUMBER.sub("NUM", text)


def _dotted_kind(content: str, lex: Lexicon) -> str | None:
    """A quoted ``name`` or ``db.table``/``table.column`` made only of names: its masked form."""
    parts = content.split(".")
    if not content or not all(_WORD.fullmatch(p) for p in parts):
        return None
    kinds = [lex.kind(p) for p in parts]
    if any(k is None for k in kinds):
        return None
    return ".".join(k for k in kinds if k is not None)


@lru_cache(maxsize=_CACHE)
def _text(text: str, lex: Lexicon) -> str:
    if not text:
        return text

    def quoted(m: re.Match[str]) -> str:
        q, content = m.group(1), m.group(2)
        named = _dotted_kind(content, lex)
        return f"{q}{named}{q}" if named else f"{q}STR{q}"

    pieces, last = [], 0
    for m in _QUOTED.finditer(text):
        pieces.append(_words(text[last : m.start()], lex))
        pieces.append(quoted(m))
        last = m.end()
    pieces.append(_words(text[last:], lex))
    return "".join(pieces)


@lru_cache(maxsize=_CACHE)
def _error(text: str, lex: Lexicon) -> str:
    """Error wording and codes kept; quoted names masked (unknown single identifiers: NAME)."""

    def quoted(m: re.Match[str]) -> str:
        q, content = m.group(1), m.group(2)
        named = _dotted_kind(content, lex)
        if named:
            return f"{q}{named}{q}"
        parts = content.split(".")
        if content and all(_WORD.fullmatch(p) for p in parts):
            return q + ".".join(lex.kind(p) or "NAME" for p in parts) + q
        return q + _words(content, lex) + q

    pieces, last = [], 0
    for m in _QUOTED.finditer(text):
        pieces.append(_mask_names_keep_codes(text[last : m.start()], lex))
        pieces.append(quoted(m))
        last = m.end()
    pieces.append(_mask_names_keep_codes(text[last:], lex))
    return "".join(pieces)


def _mask_names_keep_codes(text: str, lex: Lexicon) -> str:
    return _WORD.sub(lambda m: lex.kind(m.group(0)) or m.group(0), text)


def _role(identifier: exp.Identifier) -> str:
    parent, arg = identifier.parent, identifier.arg_key
    if isinstance(parent, exp.Table):
        return "TABLE" if arg == "this" else "DB"
    if isinstance(parent, exp.Column):
        return "COLUMN" if arg == "this" else "ALIAS"
    if isinstance(parent, (exp.TableAlias, exp.Alias)):
        return "ALIAS"
    return "NAME"


@lru_cache(maxsize=_CACHE)
def _sql(sql: str, lex: Lexicon, dialect: str) -> str:
    try:
        tree = sqlglot.parse_one(sql, read=dialect)
    except (SqlglotError, ValueError, RecursionError):
        tree = None
    if tree is None:
        return _sql_tokens(sql, lex, dialect)
    for node in list(tree.find_all(exp.Identifier)):
        role = _role(node)
        if role == "ALIAS" and isinstance(node.parent, exp.Column) and lex.kind(node.name):
            role = "TABLE"  # a column qualified by its table's own name
        node.set("this", role)
        node.set("quoted", False)
    for lit in list(tree.find_all(exp.Literal)):
        if lit.is_string:
            lit.set("this", "STR")
        else:
            lit.replace(exp.Var(this="NUM"))
    try:
        return tree.sql(dialect=dialect)
    except (SqlglotError, ValueError, RecursionError):
        return _sql_tokens(sql, lex, dialect)


def _sql_tokens(sql: str, lex: Lexicon, dialect: str) -> str:
    """Unparseable SQL, masked token by token; text the tokenizer refuses, as free text."""
    try:
        tokens = Tokenizer(dialect=dialect).tokenize(sql)
    except (SqlglotError, ValueError, RecursionError):
        return _text(sql, lex)
    out = []
    for tok in tokens:
        if tok.token_type == TokenType.STRING:
            out.append("'STR'")
        elif tok.token_type == TokenType.NUMBER:
            out.append("NUM")
        elif tok.token_type in (TokenType.VAR, TokenType.IDENTIFIER):
            out.append(lex.kind(tok.text) or "NAME")
        else:
            out.append(tok.text)
    return " ".join(out)
