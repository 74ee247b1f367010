"""A band's first number, carried by the previous band's last.

"How many store sales line items fall in each quantity band: small (1-20), medium (21-60) and
large (61-100)?" as ``CASE WHEN ss_quantity <= 20 THEN 'small' WHEN ss_quantity <= 60 THEN
'medium' ELSE 'large' END``: a CASE reads its branches in order, so ``<= 60`` after ``<= 20``
starts at 21, and the SQL need never write 21 or 61 (outside tryout 28, r06: the right answer
was withheld as ``literal_missing``, "names 21, 61").
"""

from __future__ import annotations

import re

__all__ = ["band_start"]


def band_start(value: float, question: str, carried: frozenset[float]) -> bool:
    """Whether ``value`` starts a band of the question ("21-60") right after a band that
    ends one below it ("1-20"), and the SQL carries that end (20).

    Example:
        >>> q = "bands small (1-20), medium (21-60) and large (61-100)"
        >>> band_start(21.0, q, frozenset({20.0, 60.0})), band_start(61.0, q, frozenset({20.0}))
        (True, False)
    """
    if not value.is_integer() or value - 1 not in carried:
        return False
    end, start = int(value) - 1, int(value)
    band = r"\s*(?:-|\u2013|to)\s*"
    return re.search(rf"\d{band}{end}\b\D{{1,40}}?\b{start}{band}\d", question) is not None
