"""``LayerAnswer``: a submitted answer to a question the semantic layer answers is compared with
the layer's own answer (``veto.layer_answer_differs``).

A server that holds a database's layer can answer a question about it itself. When its own
agent, reading the question, would show an answer (its planned SQL, nothing asked back or
abstained on, no veto and no cap), a submitted answer to that question (``/api/sql`` with its
question, ``/api/score``, the MCP ``sql`` tool) that gives another result answers another
question: the layer's definition was not followed (a count over a join to order lines counting
the lines, gross revenue without the layer's required filter, half the year, the gross
expression for net revenue). Outside tryout 41 (F1, F2) saw such answers shown, two agreeing
samples with the badge ``show``. The answers are compared as the scorer compares samples (the
same matching, and again with the layer's numbers rounded to the places the answer writes its
own with: a ``round(sum(...), 2)`` is the same answer); when they differ the answer is withheld
with both numbers named, when they agree the provenance says so, and when the agent would not
show an answer this says nothing.

A result given without its SQL (samples.md allows one) is read by no check; unless the layer's
answer confirms it, it is withheld (``veto.result_unchecked``).

Fail closed: when the comparison cannot be made (the agent failed, an exception, a result cut
at the row cap on either side) the answer is warned at most (``cap.layer_check_failed``), the
reason named. The agent runs in the request's thread, so its queries are under the request's
deadline. Done in the pipeline, not in the checks, whose registry is preregistered: it needs the
layer and the agent, which the checks do not have.
"""

from __future__ import annotations

import dataclasses
import decimal
from dataclasses import dataclass, field
from typing import Any

from assay.agreement import MatchingPolicy, agreement
from assay.answer import format_quantity, format_value
from assay.pipeline._agent import Agent
from assay.types import Candidate, Finding, Result, Verdict, jsonable

__all__ = ["LayerAnswer"]

_SAID_ROWS = 3  # rows of a result named in a message


def _value(value: Any) -> str:
    """A cell as a person reads it: numbers as the answers write them, anything else as a
    value.

    Example:
        >>> _value(1671670.8712), _value(16123), _value(0.04321), _value("DE")
        ('1,671,670.87', '16,123', '0.0432', 'DE')
    """
    value = jsonable(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return format_value(value)
    return format_quantity(value)


def _said(result: Result) -> str:
    """A result in a few words: one value as the value, else its first rows."""
    if len(result.rows) == 1 and len(result.columns) == 1:
        return _value(result.rows[0][0])
    count = result.row_count if result.row_count is not None else len(result.rows)
    if count == 0:
        return "no rows"
    rows = "; ".join(", ".join(_value(v) for v in row) for row in result.rows[:_SAID_ROWS])
    more = f" (of {count} rows)" if count > _SAID_ROWS else ""
    return f"{rows}{more}"


def _places(value: float) -> int:
    """The fewest decimal places (at most 6) that hold a number as written.

    Example:
        >>> _places(300424704.0), _places(300424704.14), _places(0.125)
        (0, 2, 3)
    """
    for places in range(7):
        if round(value, places) == value:
            return places
    return 6


def _rounded_as(given: Result, own: Result) -> tuple[Result, Result] | None:
    """Both results with every fractional cell rounded to the places the given answer writes
    its numbers with (the fewest of its non-whole-typed cells), or None when it writes none
    (whole numbers typed as such are compared exactly: an integer division's 3 is not 3.4).
    Outside recheck 41 (F7): ``round(sum(...), 2)`` was withheld as "300,424,704.14; this query
    gives 300,424,704.14"."""

    def fractional(value: Any) -> bool:
        return isinstance(value, (float, decimal.Decimal)) and not isinstance(value, bool)

    places = [_places(float(v)) for row in given.rows for v in row if fractional(v)]
    if not places:
        return None
    keep = min(places)

    step = decimal.Decimal(1).scaleb(-keep)

    def half_up(value: Any) -> float:
        # as the engines' ROUND does it (half away from zero), not Python's half to even
        exact = decimal.Decimal(repr(float(value)))
        return float(exact.quantize(step, rounding=decimal.ROUND_HALF_UP))

    def rounded(result: Result) -> Result:
        rows = tuple(tuple(half_up(v) if fractional(v) else v for v in row) for row in result.rows)
        return dataclasses.replace(result, rows=rows)

    return rounded(given), rounded(own)


_UNCONFIRMED = "cap.unconfirmed_fact"


def _would_show(verdict: Verdict) -> bool:
    """The agent would put its answer before a person: shown, nothing capped, or held only for
    its layer's facts to be confirmed (a drafted or imported layer: "confirm first"; outside
    recheck 41, F3: on such layers the comparison never ran, and ``count(*) * 2`` for "How
    many cars have 8 cylinders?" was shown by /api/score)."""
    held = {f.code for f in verdict.findings if f.kind in ("veto", "cap")}
    return (
        verdict.behaviour == "answer"
        and verdict.failure is None
        and (
            (verdict.action == "show" and not held)
            or (verdict.action == "warn" and held == {_UNCONFIRMED})
        )
        and verdict.candidate is not None
        and verdict.candidate.result is not None
    )


@dataclass
class LayerAnswer:
    """The comparison for one submitted answer: call it with the answer shown (the scorer's
    ``extra`` hook); ``provenance`` then says what was compared and how it came out."""

    agent: Agent
    question: str
    matching: MatchingPolicy = "permuted"
    provenance: dict[str, Any] = field(default_factory=dict)

    def __call__(self, shown: Candidate) -> tuple[Finding, ...]:
        if shown.result is None:
            return ()  # nothing to compare (vetoed elsewhere)
        found: tuple[Finding, ...] = ()
        if self.question.strip():
            try:
                found = self._compare(shown.result)
            except Exception as exc:  # fail closed: a failed check never lets an answer through
                found = self._failed(
                    f"the comparison raised {type(exc).__name__}: {str(exc)[:200]}"
                )
        if not (shown.final_sql or "").strip() and not self.provenance.get("layer_answer", {}).get(
            "agrees"
        ):
            # A result given without its SQL: no check reads it, and the layer did not confirm
            # it (outside tryout 41, F3: two samples of 999 for gross revenue were warned).
            found += (
                Finding(
                    "veto.result_unchecked",
                    "veto",
                    f"The answer is a result given without the SQL that produced it "
                    f"({_said(shown.result)}), and the semantic layer's own answer to the "
                    "question did not confirm it, so nothing about it could be checked. "
                    "Withheld: send the SQL (final_sql) that gives it, or ask the question "
                    "itself.",
                    {"given_result": _said(shown.result)},
                ),
            )
        return found

    def _compare(self, given: Result) -> tuple[Finding, ...]:
        verdict = self.agent.ask(self.question, ident="layer-answer")
        if verdict.failure is not None:
            return self._failed(
                f"the layer's own answer failed ({verdict.failure.get('code', '')}: "
                f"{verdict.failure.get('message', '')[:200]})"
            )
        if not _would_show(verdict):
            # The layer would not answer this question as it is: other checks decide.
            self.provenance["layer_answer"] = {"compared": False, "agent": verdict.action}
            return ()
        assert verdict.candidate is not None and verdict.candidate.result is not None
        own = verdict.candidate.result
        agreed = agreement([given, own], policy=self.matching)
        text = verdict.candidate.text or _said(own)
        evidence: dict[str, Any] = {
            "layer_sql": verdict.candidate.final_sql,
            "layer_result": _said(own),
            "given_result": _said(given),
        }
        if 1 in agreed.undetermined:
            return self._failed(
                "a result was cut at the row cap, so the two answers could not be compared "
                f"whole (the layer's: {_said(own)}; this one: {_said(given)})"
            )
        if 1 not in agreed.agreeing and (pair := _rounded_as(given, own)) is not None:
            agreed = agreement(list(pair), policy=self.matching)  # the same, as written
        if 1 in agreed.agreeing:
            self.provenance["layer_answer"] = {"compared": True, "agrees": True, **evidence}
            return ()
        self.provenance["layer_answer"] = {"compared": True, "agrees": False, **evidence}
        drafted = any(f.code == _UNCONFIRMED for f in verdict.findings)
        whose = (
            "The semantic layer (its facts not yet confirmed) answers this question itself"
            if drafted
            else "The semantic layer answers this question itself"
        )
        return (
            Finding(
                "veto.layer_answer_differs",
                "veto",
                f"{whose}: {text.rstrip('.')}; this "
                f"query gives {_said(given)}. The query does not follow the layer's "
                "definition of what was asked (a filter, a join, a period or the measure "
                "itself), so its number is not the answer. Withheld: ask the question itself, "
                f"or write the query as the layer does: {verdict.candidate.final_sql}",
                evidence,
            ),
        )

    def _failed(self, why: str) -> tuple[Finding, ...]:
        self.provenance["layer_answer"] = {"compared": False, "failed": why}
        return (
            Finding(
                "cap.layer_check_failed",
                "cap",
                f"This answer could not be compared with the semantic layer's own answer to the "
                f"question: {why}. Shown with a warning at most; ask the question itself for "
                "the layer's answer.",
                {"why": why},
            ),
        )
