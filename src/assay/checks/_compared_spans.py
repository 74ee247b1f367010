"""Compared periods the data covers unequally: a partial period beside a whole one.

"Number of orders in 2024", then "vs last year", on data that ends on 15 November 2024 set
2024 to 15 November (6,223) beside the whole of 2023 (6,651): the sentence said "2024 is not
over", yet the numbers read as a fall, while 2023 to 15 November was 5,364, a rise (tryout
26). Where a comparison's periods are cut by the data's span (its coverage, else the layer's
clock) and at least one other is whole, the two are not like for like: ``cap.partial_comparison``
names each cut period and its covered days, and the answer is shown with a warning at most.
"""

from __future__ import annotations

import datetime as dt

from assay.checks._context import CheckContext, CheckOutcome
from assay.semantic import Period
from assay.types import Finding

__all__ = ["partial_comparison"]


def _span(ctx: CheckContext) -> tuple[dt.date | None, dt.date | None]:
    """The first and last days the data covers, where known."""
    if ctx.coverage is not None:
        return ctx.coverage
    return None, ctx.layer.clock if ctx.layer is not None else None


def _covered(period: Period, first: dt.date | None, last: dt.date | None) -> str:
    """The part of a period the data covers, as words ("2024-01-01 to 2024-11-15"), or ``""``
    where it covers all of it (or none: nothing to compare there, said elsewhere)."""
    end = period.end - dt.timedelta(days=1)
    start = max(period.start, first) if first is not None else period.start
    stop = min(end, last) if last is not None else end
    if start > stop or (start, stop) == (period.start, end):
        return ""
    return f"{start} to {stop}"


def partial_comparison(ctx: CheckContext) -> CheckOutcome:
    """``cap.partial_comparison``: compared periods, one cut by the data's span beside a whole
    one (see the module docstring)."""
    if ctx.reading is None or len(ctx.periods) < 2:
        return CheckOutcome()
    first, last = _span(ctx)
    covered = [(p, _covered(p, first, last)) for p in ctx.periods]
    cut = [(p, words) for p, words in covered if words]
    if not cut or len(cut) == len(covered):
        return CheckOutcome()
    whole = ", ".join(p.label for p, words in covered if not words)
    said = "; ".join(f"{p.label} only {words}" for p, words in cut)
    return CheckOutcome(
        (
            Finding(
                "cap.partial_comparison",
                "cap",
                f"The compared periods are not like for like: the data covers {said}, but "
                f"{whole} whole. Compare the same days of each period (for example, ask for "
                "each period to the same date) before reading the change.",
                {"cut": [p.label for p, _ in cut], "whole": whole},
            ),
        )
    )
