"""What a tree can allocate: value sizes bounded through nested functions, and recursion bounds.

The guard must not be the one that builds a bomb, so it bounds what the tree it will run can
allocate: ``repeat`` inside ``repeat``, chains of ``replace``, padding, ``space`` (which sqlglot
regenerates as ``REPEAT``), concatenation, string aggregation of built values, and recursive
CTEs that double a value on each step or whose bound is no bound (a lower bound, an ``OR``, a
counter that never moves, an unbounded arm that is not the last).
"""

from __future__ import annotations

from sqlglot import exp

__all__ = [
    "MAX_RECURSION_BOUND",
    "MAX_VALUE_BYTES",
    "UNKNOWN_VALUE_BYTES",
    "int_literal",
    "recursion_problem",
    "value_bytes",
]

# The largest value (one cell) the guard lets a query build from literals.
MAX_VALUE_BYTES = 10_000_000
# What a column or an opaque expression is assumed to hold, in bytes, when bounding a value
# built from it (a typical cell; the worker's cell cap holds the rest).
UNKNOWN_VALUE_BYTES = 10_000
MAX_RECURSION_BOUND = 100_000
_AGGREGATES_OF_TEXT = (exp.GroupConcat, exp.ArrayAgg)
_DATE_UNITS = frozenset({"DAY", "DAYS", "WEEK", "WEEKS", "MONTH", "MONTHS", "YEAR", "YEARS"})


def int_literal(node: exp.Expr | None) -> int | None:
    """The integer a literal (through sign, brackets and casts) stands for, else ``None``."""
    if isinstance(node, exp.Neg):
        inner = int_literal(node.this)
        return None if inner is None else -inner
    if isinstance(node, (exp.Paren, exp.Cast, exp.TryCast)):
        return int_literal(node.this)
    if isinstance(node, exp.Literal) and not node.is_string:
        try:
            return int(float(node.name))
        except (ValueError, OverflowError):
            return None
    return None


def _name(node: exp.Expr) -> str:
    if isinstance(node, exp.Anonymous):
        return str(node.name).lower()
    if isinstance(node, exp.Func):
        return node.sql_name().lower()
    return type(node).__name__.lower()


def value_bytes(node: exp.Expr, depth: int = 0) -> int:
    """An upper bound on the bytes one value of ``node`` can hold (unknowns as a typical cell).

    A size that is not a literal makes the bound infinite (``MAX_VALUE_BYTES + 1``).

    Example:
        >>> import sqlglot
        >>> value_bytes(sqlglot.parse_one("repeat(repeat('x', 100), 100)"))
        10000
    """
    too_big = MAX_VALUE_BYTES + 1
    if depth > 200:
        return too_big
    if isinstance(node, exp.Literal):
        return len(node.name.encode("utf-8"))
    if isinstance(node, (exp.Null, exp.Boolean)):
        return 8
    if isinstance(node, (exp.Paren, exp.Alias, exp.Cast, exp.TryCast)):
        return value_bytes(node.this, depth + 1)
    if isinstance(node, exp.Space):
        count = int_literal(node.this)
        return too_big if count is None or count < 0 else count
    if isinstance(node, exp.Repeat):
        count = int_literal(node.args.get("times"))
        if count is None:
            return too_big
        return min(too_big, value_bytes(node.this, depth + 1) * max(count, 0))
    if isinstance(node, exp.Pad):
        width = int_literal(node.args.get("expression"))
        return too_big if width is None else max(width, 0)
    if isinstance(node, exp.Anonymous) and _name(node) in {"repeat", "lpad", "rpad"}:
        args = list(node.expressions)
        count = int_literal(args[1]) if len(args) > 1 else None
        if count is None:
            return too_big
        if _name(node) == "repeat":
            return min(too_big, value_bytes(args[0], depth + 1) * max(count, 0))
        return max(count, 0)
    if isinstance(node, exp.Replace) or (
        isinstance(node, exp.Anonymous) and _name(node) == "replace"
    ):
        args = [node.this, node.args.get("expression"), node.args.get("replacement")]
        if isinstance(node, exp.Anonymous):
            args = [*node.expressions, None, None][:3]
        subject = value_bytes(args[0], depth + 1) if args[0] is not None else 0
        pattern = args[1]
        replacement = value_bytes(args[2], depth + 1) if args[2] is not None else 0
        shortest = (
            len(pattern.name.encode("utf-8"))
            if isinstance(pattern, exp.Literal) and pattern.is_string
            else 1
        )
        growth = max(1, -(-replacement // max(shortest, 1)))
        return min(too_big, subject * growth)
    if isinstance(node, (exp.DPipe, exp.Concat, exp.ConcatWs, exp.ArrayConcat)) or (
        isinstance(node, exp.Anonymous) and _name(node) in {"concat", "concat_ws", "format"}
    ):
        return min(too_big, sum(value_bytes(a, depth + 1) for a in node.iter_expressions()))
    return UNKNOWN_VALUE_BYTES


def built_value(node: exp.Expr) -> bool:
    """Whether ``node`` builds a string larger than a column value from literals."""
    return value_bytes(node) > UNKNOWN_VALUE_BYTES


def string_growth(node: exp.Expr) -> str | None:
    """Why an aggregate of ``node`` can grow without bound, or ``None``."""
    if isinstance(node, _AGGREGATES_OF_TEXT) or (
        isinstance(node, exp.Anonymous) and _name(node) in {"string_agg", "list", "array_agg"}
    ):
        args = list(node.iter_expressions())
        if args and any(built_value(a) for a in args[:1]):
            return "it aggregates a value built to more than a column's size"
    return None


def _conjuncts(condition: exp.Expr | None) -> list[exp.Expr]:
    if condition is None:
        return []
    if isinstance(condition, (exp.Paren, exp.Where)):
        return _conjuncts(condition.this)
    if isinstance(condition, exp.And):
        return _conjuncts(condition.left) + _conjuncts(condition.right)
    return [condition]


def _arms(body: exp.Expr) -> list[exp.Expr]:
    if isinstance(body, exp.Union):
        return _arms(body.this) + _arms(body.expression)
    if isinstance(body, exp.Subquery):
        return _arms(body.this)
    return [body]


def _date_literal(node: exp.Expr | None) -> bool:
    if isinstance(node, (exp.Cast, exp.TryCast)):
        return (
            isinstance(node.this, exp.Literal)
            and node.this.is_string
            and node.to.is_type(
                exp.DataType.Type.DATE,
                exp.DataType.Type.TIMESTAMP,
                exp.DataType.Type.TIMESTAMPTZ,
                exp.DataType.Type.DATETIME,
            )
        )
    return isinstance(node, (exp.Date,)) and isinstance(node.this, exp.Literal)


def _interval_step(node: exp.Expr | None) -> bool:
    if not isinstance(node, exp.Interval):
        return False
    amount = int_literal(node.this)
    unit = node.text("unit").upper()
    if amount is None and isinstance(node.this, exp.Literal) and node.this.is_string:
        parts = node.this.name.split()
        amount = int(parts[0]) if parts and parts[0].isdigit() else None
        unit = unit or (parts[1].upper() if len(parts) > 1 else "")
    return amount is not None and amount > 0 and unit in _DATE_UNITS


def recursion_problem(cte: exp.CTE) -> str | None:
    """Why a recursive CTE is not bounded, or ``None`` when every recursive arm is.

    Every arm that reads the CTE needs, as a top-level ``AND`` term of its WHERE, an upper
    bound ``c < literal`` (or ``<=``, ``BETWEEN``, a date literal) on a column ``c`` of the CTE
    that the arm increases by a positive literal or a calendar interval, and whose starting
    value in the first arm is a literal; numeric bounds are at most ``MAX_RECURSION_BOUND``
    steps. Values the arm builds by doubling a CTE column are refused outright.
    """
    name = cte.alias.lower()
    arms = _arms(cte.this)
    columns = [c.lower() for c in cte.alias_column_names]
    anchor = arms[0] if arms else None
    if anchor is not None and not columns and isinstance(anchor, exp.Select):
        columns = [e.alias_or_name.lower() for e in anchor.expressions]
    recursive = [
        arm
        for arm in arms
        if any(t.name.lower() == name and not t.db for t in arm.find_all(exp.Table))
    ]
    if recursive and anchor in recursive:
        return "its first arm reads the CTE itself"
    for arm in recursive:
        if not isinstance(arm, exp.Select):
            return "a recursive arm is not a plain SELECT"
        growth = _doubling(arm, columns)
        if growth:
            return growth
        if not _bounded(arm, anchor, columns):
            return (
                "a recursive arm has no upper bound on a column it increases (add a WHERE term "
                f"such as n < 1000 with n + 1 in the SELECT; at most {MAX_RECURSION_BOUND:,})"
            )
    return None


def _doubling(arm: exp.Select, columns: list[str]) -> str | None:
    for projection in arm.expressions:
        own = [
            c
            for c in projection.find_all(exp.Column)
            if c.name.lower() in columns and not isinstance(c.this, exp.Star)
        ]
        if not own:
            continue
        grows = projection.find(exp.Repeat, exp.Replace, exp.Pad, exp.Space) is not None or any(
            isinstance(f, exp.Anonymous) and _name(f) in {"repeat", "replace", "lpad", "rpad"}
            for f in projection.find_all(exp.Anonymous)
        )
        concatenated = projection.find(exp.DPipe, exp.Concat, exp.ArrayConcat) is not None
        if grows or (concatenated and len(own) > 1):
            return (
                f"its recursive arm builds {projection.alias_or_name!r} from its own previous "
                "value, which can double on every step"
            )
    return None


def _bounded(arm: exp.Select, anchor: exp.Expr | None, columns: list[str]) -> bool:
    for term in _conjuncts(arm.args.get("where")):
        for column, limit, is_date in _upper_bounds(term):
            name = column.name.lower()
            if name not in columns:
                continue
            index = columns.index(name)
            if index >= len(arm.expressions):
                continue
            if not _increases(arm.expressions[index], name, is_date):
                continue
            if is_date:
                return True
            start = _anchor_value(anchor, index)
            if start is not None and limit is not None and limit - start <= MAX_RECURSION_BOUND:
                return True
    return False


def _upper_bounds(term: exp.Expr) -> list[tuple[exp.Column, int | None, bool]]:
    found: list[tuple[exp.Column, int | None, bool]] = []
    pairs: list[tuple[exp.Expr, exp.Expr]] = []
    if isinstance(term, (exp.LT, exp.LTE)):
        pairs.append((term.this, term.expression))
    elif isinstance(term, (exp.GT, exp.GTE)):
        pairs.append((term.expression, term.this))
    elif isinstance(term, exp.Between):
        pairs.append((term.this, term.args["high"]))
    for column, limit in pairs:
        if not isinstance(column, exp.Column):
            continue
        if _date_literal(limit):
            found.append((column, None, True))
            continue
        value = int_literal(limit)
        if value is not None:
            found.append((column, value, False))
    return found


def _increases(projection: exp.Expr, name: str, is_date: bool) -> bool:
    node = projection
    while isinstance(node, (exp.Alias, exp.Cast, exp.Paren, exp.TryCast)):
        node = node.this
    if not isinstance(node, exp.Add):
        return False
    left, right = node.this, node.expression
    if isinstance(right, exp.Column) and not isinstance(left, exp.Column):
        left, right = right, left
    if not (isinstance(left, exp.Column) and left.name.lower() == name):
        return False
    if is_date:
        return _interval_step(right)
    step = int_literal(right)
    return step is not None and step > 0


def _anchor_value(anchor: exp.Expr | None, index: int) -> int | None:
    if not isinstance(anchor, exp.Select) or index >= len(anchor.expressions):
        return None
    projection = anchor.expressions[index]
    node = projection.this if isinstance(projection, exp.Alias) else projection
    return int_literal(node)
