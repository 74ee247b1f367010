"""A superlative said of the one column it measures: "the youngest singer's age", "the oldest
dog", "heaviest car weight" read as the layer's minimum or maximum of that column.

Each word names a function and the word of the column it is said of: "youngest"/"oldest" an
age (min/max), "lightest"/"heaviest" a weight (min/max). ``superlative`` rewrites the question
with the metric's label in place of the word (and of the rows and the column said with it),
where exactly one metric fits: the ``MIN``/``MAX`` of a column whose name holds the word, on the
table of the rows said ("car": ``cars_data``) or of the one table holding a value said
("dog": ``Pets.PetType``). Where several fit, or none, the question is left as it is (the word
unread, asked back or abstained on, naming it).
"""

from __future__ import annotations

import re

from assay.semantic._model import Metric, SemanticLayer

__all__ = ["superlative"]

# word -> (the function, the column word it is said of)
_WORDS = {
    "youngest": ("min", "age"),
    "oldest": ("max", "age"),
    "lightest": ("min", "weight"),
    "heaviest": ("max", "weight"),
}
_SAID = re.compile(
    r"\b(youngest|oldest|lightest|heaviest)\b(?:\s+([A-Za-z]+?)(?:['’]s)?\b)?"
    r"(?:\s+(age|weight)\b)?",
    re.IGNORECASE,
)
# "how old is the oldest dog": the question's own "how old" is the age asked, said again
_HOW_OLD = re.compile(r"^\s*how\s+old\s+(?:is|was|are|were)\s+", re.IGNORECASE)
# "which country", "what country": rows ranked by their extreme; "what is", "what was" not
_WHICH = re.compile(r"\b(?:which|what)\b(?!\s+(?:is|was|are|were|'s)\b)", re.IGNORECASE)
_EXTREME = re.compile(r"^\s*(min|max)\s*\(\s*([A-Za-z_]\w*)\.([A-Za-z_]\w*)\s*\)\s*$", re.I)


def _names_table(rows: str, table: str) -> bool:
    """Whether the rows said ("car", "singers") name ``table`` ("cars_data", "singer")."""
    said = rows.lower().rstrip("s")
    return bool(said) and said in {
        table.lower().rstrip("s"),
        table.lower().split("_")[0].rstrip("s"),
    }


def _holding(rows: str, candidates: list[Metric], layer: SemanticLayer) -> list[Metric]:
    """The candidates on the table of the one dimension a value said is of ("dog": PetType)."""
    tables = {
        d.column.split(".")[0]
        for d in layer.dimensions
        if any(v.lower() == rows.lower() for v in d.values)
    }
    return [m for m in candidates if m.table in tables] if len(tables) == 1 else []


def _phrase(metric: Metric, several: bool) -> str:
    """The words naming ``metric`` alone: its label, or its name spoken where another metric of
    the same extreme was a candidate (pets_1's "minimum Age" was read as the pets' too)."""
    return metric.name.replace("_", " ") if several else metric.label


def superlative(question: str, layer: SemanticLayer) -> tuple[str, str, str] | None:
    """The question with its superlative said as the one metric it means, that metric's name
    and the word; None where no metric, or more than one, could be meant.

    Example:
        >>> heaviest = Metric("w_max", "maximum Weight", (), "cars_data", "max(cars_data.Weight)")
        >>> layer = SemanticLayer(metrics=(heaviest,))
        >>> superlative("heaviest car weight", layer)
        ('maximum Weight', 'w_max', 'heaviest')
    """
    found = _SAID.search(question)
    if found is None or len({m.group(1).lower() for m in _SAID.finditer(question)}) > 1:
        # "ordered from the oldest to the youngest": an order, neither extreme (read as the
        # minimum age per singer, it was shown unordered)
        return None
    func, noun = _WORDS[found.group(1).lower()]
    if found.group(3) and found.group(3).lower() != noun:
        return None  # "the heaviest age": said of another column, never guessed
    candidates = []
    for metric in layer.metrics:
        extreme = _EXTREME.match(metric.expression)
        if extreme is None or extreme.group(1).lower() != func:
            continue
        table, column = extreme.group(2), extreme.group(3)
        if table == metric.table and noun in column.lower().replace("_", " ").split():
            candidates.append(metric)
    several = len(candidates) > 1
    end = found.end(1)
    rows = found.group(2) or ""
    named = [m for m in candidates if _names_table(rows, m.table)]
    if named:
        candidates, end = named, found.end(2)
        if found.group(3):
            end = found.end(3)
    elif rows.lower() == noun:
        end = found.end(2)
    elif rows and len(candidates) > 1 and not found.group(3):
        candidates = _holding(rows, candidates, layer)  # "the oldest dog": a pet's age
    if len(candidates) != 1:
        return None
    said = _phrase(candidates[0], several)
    before = question[: found.start()]
    if _WHICH.search(before):
        # "which country has the oldest singer": the country whose oldest is the oldest;
        # "what is the age of the youngest singer" names no rows to rank (outside tryout 39
        # was asked back on 'bottom', a word the reader had put there)
        said = f"{'lowest' if func == 'min' else 'highest'} {said}"
    elif noun == "age":
        before = _HOW_OLD.sub("", before)
    rewritten = f"{before}{said}{question[end:]}"
    return rewritten, candidates[0].name, found.group(1)
