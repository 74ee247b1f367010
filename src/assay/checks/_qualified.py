"""A column the SQL reads while its table holds the same column qualified as the question says.

"What was the total amount paid for web sales in 2000, tax included?" answered with
``sum(ws_net_paid)`` sums what was paid before tax, though ``web_sales`` holds
``ws_net_paid_inc_tax``: the same words and a qualifier, "inc tax", that the question says
("tax included"). "The total lifetime spend before tax" as ``sum(LIFETIME_SPEND)`` is the same
misreading of ``LIFETIME_SPEND_PRETAX`` (agreed20, h20_d14 and h20_g03: each shown at 1.00,
five samples agreeing).

``qualifier_unread``: for each column the SQL reads, another column of its table that is named
by all its words and more (the qualifier), read nowhere in the SQL, and whose every qualifier
word the question says (a word, its inflections or its spelled-out form: "inc" by "included",
"pre" by "before"; "pretax" is "pre" and "tax"). When exactly one such column qualifies a column
read, it is ``signal.column_mismatch``.

Silent when the SQL reads another column of that table carrying a qualifier word
(``LIFETIME_SPEND - LIFETIME_TAX_PAID`` computes the pretax spend itself), when the qualifier is
only a key word (``id``, ``sk``), or when the SQL does not parse: its silence is never evidence
of a right answer.

``qualified_as_said`` is the same reading turned round, for ``column_fit``: a question that names
``LIFETIME_SPEND`` word for word and says "before tax" is rightly answered from
``LIFETIME_SPEND_PRETAX``, and a total of ``cs_wholesale_cost`` from ``cs_ext_wholesale_cost``
(both right answers drew ``column_fit``'s mismatch before; so did the right answer of agreed16's
h16_d13, "extended sales price" as ``ss_ext_sales_price``, which also withheld its wrong answer,
by luck). ``stem`` (moved here from
``_loose_columns``) reads a word less its inflection.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog, column_prefix
from assay.checks._cues import words
from assay.checks._values import _owner
from assay.types import Finding

__all__ = ["column_words", "qualified_as_said", "qualifier_unread", "stem"]

_MIN_STEM = 4  # shorter words ("amt", "qty", "net") are compared whole
_ENDINGS = ("ing", "ed", "es", "s")

# A qualifier word by the words a question spells it with ("inc tax": "including tax").
_SPELLED: dict[str, tuple[str, ...]] = {
    "inc": ("including", "included", "includes", "incl", "with"),
    "incl": ("including", "included", "includes", "with"),
    "pre": ("before",),
    "post": ("after",),
    "ex": ("excluding", "excluded", "without"),
    "excl": ("excluding", "excluded", "without"),
}
# Glued prefixes of one qualifier word: "pretax" is "pre tax".
_GLUED = re.compile(r"(pre|post)([a-z]{3,})")
# The qualifier of a row's value extended over its quantity (TPC-DS ``ext_``).
_EXTENDED = ({"ext"}, {"extended"})
# A qualifier of only these names a key or a code of the same thing, not another measure of it.
_KEY_WORDS = frozenset({"id", "sk", "key", "code", "no", "num", "nbr"})


def stem(word: str, endings: tuple[str, ...] = _ENDINGS, shortest: int = _MIN_STEM) -> str:
    """A word less one inflection ending ("refunded", "refunds": "refund"), the first of
    ``endings`` that leaves ``shortest`` letters or more. ``_ranked_other`` takes off a plural
    "s" alone down to three letters ("units": "unit", "uses": "use", "priced" whole).

    Example:
        >>> stem("refunded"), stem("refund"), stem("cash")
        ('refund', 'refund', 'cash')
        >>> stem("uses"), stem("uses", ("s",), 3), stem("priced", ("s",), 3)
        ('uses', 'use', 'priced')
    """
    for ending in endings:
        if word.endswith(ending) and len(word) - len(ending) >= shortest:
            return word[: -len(ending)]
    return word


def column_words(column: str, prefix: str) -> list[str]:
    """A column's own words, lower case, less its table's prefix, glued prefixes split.

    Example:
        >>> column_words("LIFETIME_SPEND_PRETAX", "")
        ['lifetime', 'spend', 'pre', 'tax']
        >>> column_words("ws_net_paid_inc_tax", "ws")
        ['net', 'paid', 'inc', 'tax']
    """
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", column)
    parts = [w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w]
    if prefix and len(parts) > 1 and parts[0] == prefix:
        parts = parts[1:]
    out: list[str] = []
    for part in parts:
        glued = _GLUED.fullmatch(part)
        out.extend(glued.groups() if glued else (part,))
    return out


def _qualifier(own: list[str], other: list[str]) -> list[str] | None:
    """The words ``other`` adds to ``own`` when ``own``'s words are ``other``'s in order and
    ``other`` has more; ``None`` otherwise."""
    if len(other) <= len(own):
        return None
    rest, at = [], 0
    for word in other:
        if at < len(own) and word == own[at]:
            at += 1
        else:
            rest.append(word)
    return rest if at == len(own) else None


def _said(word: str, question: list[str], stems: set[str]) -> bool:
    """The question says the word, an inflection of it, or a word it abbreviates or
    spells."""
    if stem(word) in stems or any(w in _SPELLED.get(word, ()) for w in question):
        return True
    return len(word) >= 3 and any(w.startswith(word) and len(w) > len(word) for w in question)


def qualified_as_said(question: str, named: str, taken: str) -> bool:
    """``taken`` is the column ``named`` with a qualifier the question says ("lifetime spend
    before tax": ``LIFETIME_SPEND_PRETAX`` for ``LIFETIME_SPEND``), or extended over the row's
    quantity (``cs_ext_wholesale_cost`` for ``cs_wholesale_cost``: a line's own value, what a
    total adds up): a right reading of a question that names ``named`` word for word (agreed20:
    the right answers of h20_g03 and h20_d05 drew ``column_fit``'s mismatch).

    Example:
        >>> qualified_as_said("lifetime spend before tax", "SPEND", "SPEND_PRETAX")
        True
        >>> qualified_as_said("lifetime spend", "SPEND", "SPEND_PRETAX")
        False
    """
    extra = _qualifier(column_words(named, ""), column_words(taken, ""))
    if not extra:
        return False
    said = words(question)
    stems = {stem(w) for w in said}
    return set(extra) in _EXTENDED or all(_said(w, said, stems) for w in extra)


def _read(tree: exp.Expr, catalog: Catalog) -> dict[str, set[str]]:
    """Per table, the columns the SQL reads (the catalogue's spelling)."""
    read: dict[str, set[str]] = {}
    for column in tree.find_all(exp.Column):
        owner = _owner(column, tree, catalog)
        if owner is not None:
            read.setdefault(owner[0], set()).add(owner[1])
    return read


def qualifier_unread(question: str, tree: exp.Expr, catalog: Catalog) -> list[Finding]:
    """``signal.column_mismatch`` for ``ws_net_paid`` read where the question says "tax
    included" and the table holds ``ws_net_paid_inc_tax`` (see the module docstring)."""
    said = words(question)
    stems = {stem(w) for w in said}
    findings = []
    for table, columns in sorted(_read(tree, catalog).items()):
        info = catalog.table(table)
        if info is None:
            continue
        names = [c.name for c in info.columns]
        prefix = column_prefix(names)
        own = {c: column_words(c, prefix) for c in names}
        read_words = {w for c in columns for w in own[c]}
        for column in sorted(columns):
            meant = [
                other
                for other in names
                if other not in columns
                and (extra := _qualifier(own[column], own[other])) is not None
                and not set(extra) <= _KEY_WORDS
                and not set(extra) & read_words
                and all(_said(w, said, stems) for w in extra)
            ]
            if len(meant) == 1:
                findings.append(_finding(table, column, meant[0]))
    return findings


def _finding(table: str, column: str, meant: str) -> Finding:
    return Finding(
        "signal.column_mismatch",
        "signal",
        f"The question qualifies {table}.{column} as {table}.{meant} does, but the SQL reads "
        f"{table}.{column} and never {table}.{meant}.",
        {"named": f"{table}.{meant}", "used": [f"{table}.{column}"]},
    )
