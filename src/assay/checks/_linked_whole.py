"""A share of an entity's rows found in a link table, divided by every row of the entity.

"What share of pet-owning students own a dog?" as ``(SELECT count(DISTINCT h.StuID) FROM
Has_Pet h JOIN Pets p ON h.PetID = p.PetID WHERE p.PetType = 'dog') * 1.0 / (SELECT count(*)
FROM Student)`` divides the dog owners by every student, pet or none: 1/34 where the share is
1/2 (outside tester, dist36). The numerator counts students as they appear in ``Has_Pet`` (a
declared key to ``Student``), and the whole the question names, "pet-owning students", is those
students: the denominator must count them through the same link, not every row of
``Student``. It was withheld before only because its COUNT(DISTINCT) was read as unasked.

``_share_whole`` reads a denominator over a table the numerator never reads as a ratio of two
things and says nothing; this is the one such denominator it reads: a COUNT over the whole of
the table the numerator's key refers to (no WHERE, no join, no GROUP BY), when the question's
whole names that table and, beside it, another table the numerator reads ("pet-owning" names
``Pets``). "What share of students own a dog?" over every student names no such table and is
right: silent.
"""

from __future__ import annotations

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._context import CheckContext
from assay.checks._cues import named_tables
from assay.checks._sql import column_reads

__all__ = ["linked_whole", "other_whole"]


def linked_whole(
    ctx: CheckContext, tree: exp.Expr, whole: str, top: exp.Select, bottom: exp.Select
) -> str | None:
    """What the denominator ``bottom`` does wrong when it counts every row of the table the
    numerator ``top`` counts through a link, and the whole names that link's other table;
    None otherwise (the module docstring)."""
    if ctx.catalog is None:
        return None
    counted = _counted_through_key(tree, ctx.catalog, top)
    if counted is None:
        return None
    link, entity = counted
    if _every_row_of(bottom) != entity.lower():
        return None
    read = sorted({t.name for t in top.find_all(exp.Table)})
    if entity.lower() in {t.lower() for t in read} or not named_tables(whole, (entity,)):
        return None
    others = sorted(named_tables(whole, tuple(read)))
    if not others:
        return None
    return (
        f"counts every row of {entity}, where the whole is the {entity} rows in {link}, as "
        f"the numerator counts them (the whole's words name {', '.join(others)})"
    )


def other_whole(
    ctx: CheckContext, tree: exp.Expr, whole: str, top: exp.Select, bottom: exp.Select
) -> str | None:
    """What the denominator ``bottom`` does wrong when it counts every row of a table the
    question's whole does not name, while the numerator ``top`` counts the table it does name:
    "What share of students own a pet?" as the owners over ``count(*) FROM pets`` (or over the
    pet rows of ``Has_Pet``) divides by pets, not students (outside tryout 38). The numerator
    counts a table by ``count(*)`` over it alone or by ``count(DISTINCT key)`` of a declared
    foreign key to it; None otherwise."""
    if ctx.catalog is None:
        return None
    counted = _counted_through_key(tree, ctx.catalog, top)
    numerator = counted[1] if counted is not None else None
    if numerator is None and _counts_rows(top):
        numerator = _every_row_of(top, narrowed=True)
    below = _every_row_of(bottom) if _counts_rows(bottom) else None
    if numerator is None or below is None or below == numerator.lower():
        return None
    named = {t.lower() for t in named_tables(whole, tuple(t.name for t in ctx.catalog.tables))}
    if numerator.lower() not in named or below in named:
        return None
    return (
        f"counts every row of {below}, where the whole the question names is the {numerator} "
        f"rows the numerator counts; divide by those (count(*) FROM {numerator})"
    )


def _counted_through_key(
    tree: exp.Expr, catalog: Catalog, select: exp.Select
) -> tuple[str, str] | None:
    """The table a SELECT's one COUNT(DISTINCT column) reads and the table it refers to, when
    the column is a declared one-column foreign key ("count(DISTINCT Has_Pet.StuID)":
    Has_Pet, Student)."""
    counts = [c for c in select.find_all(exp.Count) if c.find_ancestor(exp.Select) is select]
    if len(counts) != 1 or not isinstance(counts[0].this, exp.Distinct):
        return None
    columns = counts[0].this.expressions
    if len(columns) != 1 or not isinstance(columns[0], exp.Column):
        return None
    reads = column_reads(tree, catalog, columns[0])
    if len(reads) != 1:
        return None
    table, column = reads[0]
    refers = {
        fk.ref_table
        for fk in catalog.foreign_keys
        if fk.table.lower() == table.lower() and [c.lower() for c in fk.columns] == [column.lower()]
    }
    return (table, refers.pop()) if len(refers) == 1 else None


def _every_row_of(select: exp.Select, narrowed: bool = False) -> str | None:
    """The one base table a SELECT counts every row of (``SELECT count(*) FROM Student``, no
    WHERE, join, GROUP BY or HAVING; a WHERE allowed with ``narrowed``), lowercased; None for
    any other SELECT."""
    source = select.args.get("from_")
    cut = ("joins", "group", "having") if narrowed else ("where", "joins", "group", "having")
    if source is None or any(select.args.get(k) for k in cut):
        return None
    if not isinstance(source.this, exp.Table):
        return None
    counts = [c for c in select.find_all(exp.Count) if c.find_ancestor(exp.Select) is select]
    if len(counts) != 1:
        return None
    return str(source.this.name).lower()


def _counts_rows(select: exp.Select) -> bool:
    """Whether a SELECT's one COUNT counts rows (``count(*)``, ``count(col)``), not values."""
    counts = [c for c in select.find_all(exp.Count) if c.find_ancestor(exp.Select) is select]
    return len(counts) == 1 and not isinstance(counts[0].this, exp.Distinct)
