"""What an answer rests on, for Rosetta 4.3's routing: the layer's facts it used, their tiers and
confidences (read from the layer's ``tier`` / ``confidence`` / ``fact`` fields), and any forcing
PII class it would return.

An element without a tier was written by the layer's author and counts as affirmed (confidence
1). An element below the commit tier (``AUTO_COMMIT_TIER``) is an unconfirmed fact: the answer
becomes confirm-first, naming the fact and how to confirm it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import sqlglot
from sqlglot import exp

from assay.catalog import (
    AUTO_COMMIT_TIER,
    FORCING_PII,
    PASS_FRACTION,
    PATTERNS,
    Tier,
    cap_confidence,
)
from assay.gate import detect_mode, route
from assay.generators import Plan
from assay.semantic import Reading, SemanticLayer
from assay.types import Action, Candidate, Finding, Result, Verdict

__all__ = ["Rested", "forcing_pii", "rested_on", "routed"]


@dataclass(frozen=True)
class Rested:
    """One layer element an answer rests on."""

    kind: str  # metric | join | dimension
    name: str
    tier: str  # "" when written by the layer's author
    confidence: float
    fact: str

    @property
    def tier_value(self) -> int | None:
        return int(Tier[self.tier]) if self.tier else None

    @property
    def unconfirmed(self) -> bool:
        return bool(self.tier) and Tier[self.tier] < AUTO_COMMIT_TIER

    def how_to_confirm(self, imported: bool = False) -> str:
        """How to confirm the fact; on an ``imported`` layer, in the layer's file (drafting
        it with `assay semantic init` would replace the import; outside tryout 40, F-11)."""
        if imported:
            return (
                f"check the {self.kind} {self.name} in the layer's file and, where it is right, "
                "delete its tier, confidence and fact lines (an element without a tier counts "
                "as written by the layer's author); importing again writes it unconfirmed "
                "again, and `assay semantic init` would replace the imported layer"
            )
        fact_id = self.fact.split(":", 1)[0]
        if fact_id.isdigit():
            # the layer holds the tier it was drafted with: accepting alone changes nothing
            # until the layer is drafted again (outside tryout 16 accepted and saw no change)
            return (
                f"assay catalog accept {fact_id} --store STORE, then draft the layer again "
                "with the same store (assay semantic init --store STORE --force) so it holds "
                "the accepted tier"
            )
        return (
            "assay semantic init --store STORE (records it and names its fact), then assay "
            f"catalog accept FACT --store STORE for '{self.fact}' and draft the layer again "
            "with the same store"
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "name": self.name,
            "tier": self.tier or "author",
            "confidence": self.confidence,
            "fact": self.fact,
        }


def imported(layer: SemanticLayer) -> bool:
    """Whether ``layer`` was written by `assay semantic import` (its description says so).

    Example:
        >>> imported(SemanticLayer(description="Imported from Cube by 'assay semantic import'."))
        True
        >>> imported(SemanticLayer(description="Drafted by 'assay semantic init'."))
        False
    """
    return "by 'assay semantic import'" in layer.description


def _rested(kind: str, name: str, tier: str, confidence: float | None, fact: str) -> Rested:
    conf = 1.0 if not tier else (confidence if confidence is not None else 0.0)
    return Rested(kind, name, tier, conf, fact or name)


def rested_on(planned: Plan, reading: Reading, layer: SemanticLayer) -> tuple[Rested, ...]:
    """Every metric asked, the joins between the plan's tables and the dimensions read, in
    that order. Each metric counts, not only the plan's first: "store sales count and total
    web sales net paid" rests on a guessed sum too (outside tryout 22 was shown it plainly,
    the second metric's tier unread)."""
    metrics = [planned.metric]
    metrics += [m for m in layer.metrics if m.name in reading.metrics and m not in metrics]
    out = [_rested("metric", m.name, m.tier, m.confidence, m.fact) for m in metrics]
    tables = set(planned.tables)
    for j in layer.joins:
        left, right = j.tables
        if planned.join_count and left in tables and right in tables and left != right:
            name = f"{j.left} = {j.right}"
            out.append(_rested("join", name, j.tier, j.confidence, j.fact))
    names = dict.fromkeys([*reading.groups, *(f.dimension for f in reading.filters)])
    for name in names:
        d = layer.dimension(name)
        out.append(_rested("dimension", d.name, d.tier, d.confidence, d.fact))
    for c in reading.comparisons:
        if c.dimension in names:
            continue
        out.append(_compared_on(c.dimension, c.column, layer))
    # "in 1970" is two bounds on one column: the fact it rests on is named once (outside
    # tryouts 15 and 16 read the same cap.unconfirmed_fact line twice)
    return tuple(dict.fromkeys(out))


def _compared_on(dimension: str, column: str, layer: SemanticLayer) -> Rested:
    """What a bound rests on: its dimension, or (a bound on a metric's column) the least sure
    metric over that column. A column whose meaning only its name gives (one the layer does
    not define, read from the catalog) is an unconfirmed fact at the name-only tier: the
    answer is confirmed first, as an answer on a drafted metric is."""
    if not column:
        found = [d for d in layer.dimensions if d.name == dimension]
        if found:
            d = found[0]
            return _rested("dimension", d.name, d.tier, d.confidence, d.fact)
    ref = column.lower()
    over = [m for m in layer.metrics if ref and ref in m.expression.lower()]
    if over:
        m = min(over, key=lambda m: _rested("", "", m.tier, m.confidence, "").confidence)
        return _rested("column", column, m.tier, m.confidence, m.fact or f"{column} semantic_type")
    return _rested(
        "column",
        column or dimension,
        Tier.INTERPRETER_ONLY.name,
        cap_confidence(1.0, Tier.INTERPRETER_ONLY),
        f"{column or dimension} semantic_type",
    )


def _raw_columns(sql: str, dialect: str) -> set[str]:
    """``table.column`` of every column a projection returns raw (outside an aggregate)."""
    try:
        tree = sqlglot.parse_one(sql, read=dialect)
    except Exception:  # an unparsable plan is refused by the guard before this matters
        return set()
    aliases = {t.alias_or_name: t.name for t in tree.find_all(exp.Table)}
    raw = set()
    for select in tree.find_all(exp.Select):
        for projection in select.expressions:
            for column in projection.find_all(exp.Column):
                if column.find_ancestor(exp.AggFunc) is None:
                    raw.add(f"{aliases.get(column.table, column.table)}.{column.name}".lower())
    return raw


def forcing_pii(
    sql: str, result: Result | None, layer: SemanticLayer, dialect: str
) -> list[tuple[str, str]]:
    """Each (column, class) of a forcing PII class the answer would return raw and the layer does
    not allow: from the layer's ``pii`` list (proved when it was drafted) and from the returned
    text values themselves (the pattern library's tests)."""
    allowed = set(layer.allow_pii)
    raw = _raw_columns(sql, dialect)
    found = [
        (ref, kind)
        for ref, kind in layer.pii
        if kind in FORCING_PII and kind not in allowed and ref.lower() in raw
    ]
    if result is None:
        return found
    for index, column in enumerate(result.columns):
        texts = [str(r[index]).strip() for r in result.rows if isinstance(r[index], str)]
        if not texts:
            continue
        for spec in PATTERNS:
            if spec.pii not in FORCING_PII or spec.pii in allowed or spec.test is None:
                continue
            passed = sum(1 for t in texts if spec.test(t))
            if passed / len(texts) >= PASS_FRACTION:
                found.append((str(column), str(spec.pii)))
                break
    return found


def _features(verdict: Verdict, rested: tuple[Rested, ...]) -> dict[str, float]:
    """The paper's published features, measured on this answer."""
    codes = {f.code for f in verdict.findings}
    read_by_model = "cap.model_resolved_metric" in codes
    return {
        "execution_ok": 1.0 if verdict.candidate and verdict.candidate.result else 0.0,
        # the deterministic reader accounts for every word or asks back; a metric the model
        # chose is the one reading that is not the lexicon's own
        "link_calibrated_probability": 0.5 if read_by_model else 1.0,
        "catalog_entry_mean_confidence": sum(r.confidence for r in rested) / len(rested),
        "magnitude_cohort_outlier_penalty": 1.0 if "veto.impossible_value" in codes else 0.0,
        "row_count_implausible_penalty": 1.0 if "signal.empty_result" in codes else 0.0,
    }


def routed(
    verdict: Verdict,
    planned: Plan,
    reading: Reading,
    layer: SemanticLayer,
    dialect: str,
    calibrator: Any = None,
) -> Verdict:
    """The answered verdict routed (Rosetta 4.3): refused when it would return a forcing PII
    class the layer does not allow; confirm-first (shown at most as a warning, naming each
    unconfirmed fact and how to confirm it) when it rests on a fact below the commit tier or
    scores below the confirm threshold; refused (withheld) below the refuse threshold."""
    candidate = verdict.candidate
    result = candidate.result if candidate else None
    rested = rested_on(planned, reading, layer)
    pii = forcing_pii(candidate.final_sql or "" if candidate else "", result, layer, dialect)
    features = _features(verdict, rested)
    mode = detect_mode(
        [r.tier_value for r in rested], int(AUTO_COMMIT_TIER), int(Tier.DOC_CITED_STRONG)
    )
    unconfirmed = [r for r in rested if r.unconfirmed]
    decision = route(
        features, mode, soft_pin=bool(unconfirmed), forcing_pii=bool(pii), calibrator=calibrator
    )
    provenance = {
        **verdict.provenance,
        "route": {
            **decision.to_dict(),
            "features": features,
            "rests_on": [r.to_dict() for r in rested],
        },
    }
    if decision.route == "refuse" and pii:
        named = ", ".join(f"{c} ({k})" for c, k in pii)
        finding = Finding(
            "veto.forcing_pii",
            "veto",
            f"The answer would return {named} raw; these classes are never shown unless the "
            "layer lists them under allow_pii.",
            {"columns": [c for c, _ in pii], "classes": sorted({k for _, k in pii})},
        )
        provenance["message"] = finding.message
        provenance.pop("citations", None)  # they quote the cells
        kept = tuple(f for f in verdict.findings if not f.evidence and f.kind != "note")
        return dataclasses.replace(
            verdict,
            behaviour="refuse",
            action="withhold",
            findings=(*kept, finding),
            reasons=(finding.code,),
            candidate=Candidate(candidate.final_sql if candidate else None),
            provenance=provenance,
            route="refuse",
        )
    findings = verdict.findings + tuple(
        Finding(
            "cap.unconfirmed_fact",
            "cap",
            f"The answer rests on the {r.kind} {r.name}, an unconfirmed fact ({r.fact}; tier "
            f"{r.tier}, confidence {r.confidence:.2f}, below {AUTO_COMMIT_TIER.name}). Confirm "
            f"it first: {r.how_to_confirm(imported(layer))}.",
            {"fact": r.fact, "tier": r.tier, "confidence": r.confidence, "kind": r.kind},
        )
        for r in unconfirmed
    )
    action: Action = verdict.action
    reasons = verdict.reasons
    if decision.route == "refuse":
        action = "withhold"
    elif decision.route == "confirm_first" and action == "show":
        action = "warn"
    if decision.route != "answer":
        reasons = tuple(dict.fromkeys((*reasons, *decision.reasons)))
        if unconfirmed:
            reasons = tuple(dict.fromkeys((*reasons, "cap.unconfirmed_fact")))
    return dataclasses.replace(
        verdict,
        action=action,
        findings=findings,
        reasons=reasons,
        provenance=provenance,
        route=decision.route,
    )
