"""Value normalisation before results are compared.

Floats are rounded to four places for matching (six for the entropy signature), numeric strings
become numbers, every NULL is one NULL, and values that are equal as numbers compare equal
whatever their engine type (``Decimal('1.50')``, ``1.5``, ``'1.5'``).
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
import re
from typing import Any

__all__ = ["NULL", "needs_six_places", "normalise_row", "normalise_value"]


class _Null:
    """The single NULL: sorts first, equals only itself, hashes stably."""

    _instance: _Null | None = None

    def __new__(cls) -> _Null:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NULL"

    def __reduce__(self) -> str:
        return "NULL"


NULL = _Null()
_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}")


def _number(value: float, places: int) -> int | float | str:
    if math.isnan(value):
        return "NaN"  # NaN != NaN would break multiset equality
    if math.isinf(value):
        return value
    rounded = round(value, places)
    if rounded == int(rounded) and abs(rounded) < 2**53:
        return int(rounded)
    return rounded + 0.0  # -0.0 becomes 0.0


def normalise_value(value: Any, places: int = 4) -> Any:
    """One value in the canonical form used to compare results.

    Example:
        >>> normalise_value(decimal.Decimal("2.50000"))
        2.5
        >>> normalise_value(" 3.14159 ")
        3.1416
        >>> normalise_value(None) is normalise_value(None)
        True
    """
    if value is None:
        return NULL
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return _number(value, places)
    if isinstance(value, decimal.Decimal):
        return _number(float(value), places)
    if isinstance(value, str):
        text = value.strip()
        if text and (text[0].isdigit() or text[0] in "+-."):
            if _DATETIME.match(text):
                return text[:10] + "T" + text[11:]  # one spelling of a timestamp
            try:
                return _number(float(text), places)
            except ValueError:
                return value
        return value
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    return str(value)


def normalise_row(row: tuple[Any, ...] | list[Any], places: int = 4) -> tuple[Any, ...]:
    # Plain ints are already canonical; skipping the call halves the cost on typical results.
    return tuple(v if type(v) is int else normalise_value(v, places) for v in row)


def needs_six_places(row: tuple[Any, ...] | list[Any]) -> bool:
    """Whether rounding to six places could differ from four (a float, decimal or string)."""
    return any(type(v) is not int and v is not None for v in row)
