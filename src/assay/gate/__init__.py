"""Gate: a frozen, versioned policy turns a score into show, warn or withhold; Rosetta's route
turns catalog confidence into answer, confirm-first or refuse."""

from assay.gate._policy import Decision, GatePolicy, chow_threshold, decide
from assay.gate._route import (
    POLICIES,
    WEIGHTS,
    QueryPolicy,
    RouteDecision,
    detect_mode,
    route,
    route_score,
)

__all__ = [
    "POLICIES",
    "WEIGHTS",
    "Decision",
    "GatePolicy",
    "QueryPolicy",
    "RouteDecision",
    "chow_threshold",
    "decide",
    "detect_mode",
    "route",
    "route_score",
]
