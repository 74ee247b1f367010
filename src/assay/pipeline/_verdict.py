"""``build_verdict``: the one place a ``Verdict`` is made, from named parts.

Every stage that ends a question (the agent's behaviour rules, the guard's refusal, the scorer's
rule and gate, the watched agent's monitor) builds its verdict here, keyword by keyword, with the
scoring rule (or what decided in its place) and the gate policy passed as objects, so that a
verdict's ``rule`` and ``policy`` fields are always the name and version of something that ran.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from assay import __version__
from assay.types import Action, Behaviour, Candidate, Finding, Verdict

__all__ = [
    "BEHAVIOUR_RULES",
    "GUARD_REFUSAL",
    "MONITOR_STOP",
    "Decider",
    "Versioned",
    "build_verdict",
]


class Versioned(Protocol):
    """Anything written into a verdict by name and version: a scoring ``Rule``, a
    ``GatePolicy`` or a ``Decider``."""

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> str: ...


@dataclass(frozen=True)
class Decider:
    """What decided a verdict that no scoring rule scored, written in the ``rule`` field.

    These deciders are code, not fitted or frozen rules: their version is the release of
    Assay whose code decided.
    """

    name: str
    version: str = __version__


# The question was asked back, abstained on or refused by the rules in ``semantic.behaviour``
# (or the input checks before them, or the fail-closed boundary of ``Agent.ask``).
BEHAVIOUR_RULES = Decider("behaviour_rules")
# The planned or given SQL was refused by the guard, or the engine failed on it, before any
# score: the answer is withheld with score 0.
GUARD_REFUSAL = Decider("guard_refusal")
# The watched agent stopped (monitor exit, abstention, system failure) or refused by intent
# before any answer was scored.
MONITOR_STOP = Decider("monitor_stop")

_BEHAVIOURS: dict[str, Behaviour] = {
    "answer": "answer",
    "clarify": "clarify",
    "abstain": "abstain",
    "refuse": "refuse",
}


def build_verdict(
    *,
    ident: str,
    behaviour: str,
    rule: Versioned,
    policy: Versioned,
    action: Action = "withhold",
    score: float | None = None,
    findings: tuple[Finding, ...] = (),
    reasons: tuple[str, ...] = (),
    candidate: Candidate | None = None,
    agreement: Mapping[str, Any] | None = None,
    provenance: Mapping[str, Any] | None = None,
    label: int | None = None,
    failure: Mapping[str, str] | None = None,
    failures: tuple[dict[str, Any], ...] = (),
) -> Verdict:
    """The verdict, withheld unless an ``action`` is given.

    Raises:
        KeyError: ``behaviour`` is not one of answer, clarify, abstain, refuse (a bug in the
            caller; ``Agent.ask`` turns it into a recorded failure).

    Example:
        >>> from assay.gate import GatePolicy
        >>> v = build_verdict(ident="q1", behaviour="clarify", rule=BEHAVIOUR_RULES,
        ...                   policy=GatePolicy(), reasons=("behaviour.ambiguous",))
        >>> (v.action, v.rule, v.score, v.reasons)
        ('withhold', 'behaviour_rules', None, ('behaviour.ambiguous',))
    """
    return Verdict(
        id=ident,
        behaviour=_BEHAVIOURS[behaviour],
        action=action,
        score=score,
        rule=rule.name,
        rule_version=rule.version,
        policy=policy.name,
        policy_version=policy.version,
        findings=findings,
        reasons=reasons,
        candidate=candidate,
        agreement=dict(agreement or {}),
        provenance=dict(provenance or {}),
        label=label,
        failure=dict(failure) if failure is not None else None,
        failures=failures,
    )
