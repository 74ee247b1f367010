"""Two phrasings of metric descriptions read before the rest of the question.

- "across all transactions" (records, rows, entries, a table's rows by its name, or a
  dimension's own plural: "across all brands"): over all of them, one total, no grouping. Taken
  out of the question; the reading's "over all rows" / "over all dates" says it.
- A parenthetical that restates a grouping by a qualified column ("(requires grouping by
  item.i_brand)"): read as that grouping when the column is exactly a dimension's column.
  Anything else in parentheses is left in place, its words unread (asked back).

Both are blanked out of the question (every other word keeps its place).
"""

from __future__ import annotations

import re

from assay.semantic._model import SemanticLayer
from assay.semantic._resolve import Lexicon, canonical, tokenize

__all__ = ["grouping_notes", "whole_rows"]

_ROWS = frozenset({"transactions", "records", "rows", "entries", "lines", "events"})
_ACROSS_ALL = re.compile(r"\b(?:across|over)\s+(?:all|every)\s+(?:of\s+)?(?:the\s+)?", re.I)
_GROUPING = re.compile(
    r"\(\s*(?:requires|required|needs|with|via|by|using)?\s*(?:a\s+)?"
    r"(?:grouping|grouped|group)\s+by\s+([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)\s*\)",
    re.IGNORECASE,
)


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def whole_rows(question: str, layer: SemanticLayer, lexicon: Lexicon) -> str:
    """The question with each "across all <rows>" blanked (one total over them).

    Example:
        >>> from assay.semantic._model import Metric
        >>> layer = SemanticLayer(metrics=(Metric("sales", "sales", (), "t", "SUM(t.x)"),))
        >>> whole_rows("sales across all transactions", layer, Lexicon(layer)).strip()
        'sales'
    """
    tables = {t.lower() for t in layer.tables} | {m.table.lower() for m in layer.metrics}
    out = question
    for m in _ACROSS_ALL.finditer(question):
        tokens = tokenize(question[m.end() :])
        if not tokens:
            continue
        first = canonical(tokens[0].text)
        end = m.end() + tokens[0].end
        if first in _ROWS or (first.endswith("s") and first[:-1] in tables) or first in tables:
            if first in tables and not first.endswith("s"):
                continue  # "across all store" is not a plural: left to the reader
            out = _blank(out, m.start(), end)
            continue
        # a dimension's own plural: the longest dimension phrase there, its last word plural
        found = lexicon.match_tokens(tokens, [False] * len(tokens))
        head = next((f for f in found if f.start == 0), None)
        if (
            head is not None
            and head.kind == "dimension"
            and len(head.targets) == 1
            and canonical(tokens[head.end - 1].text).endswith("s")
        ):
            out = _blank(out, m.start(), m.end() + tokens[head.end - 1].end)
    return out


def grouping_notes(question: str, layer: SemanticLayer) -> tuple[str, tuple[str, ...]]:
    """The question with each parenthetical grouping by a dimension's column blanked, and the
    dimensions it names (in question order)."""
    columns = {d.column.lower(): d.name for d in layer.dimensions}
    out, groups = question, []
    for m in _GROUPING.finditer(question):
        dim = columns.get(f"{m.group(1)}.{m.group(2)}".lower())
        if dim is None:
            continue  # not a dimension's column: its words stay unread
        out = _blank(out, m.start(), m.end())
        groups.append(dim)
    return out, tuple(groups)
