"""Gate: a frozen, versioned policy turns a score into show, warn or withhold."""

from assay.gate._policy import Decision, GatePolicy, chow_threshold, decide

__all__ = ["Decision", "GatePolicy", "chow_threshold", "decide"]
