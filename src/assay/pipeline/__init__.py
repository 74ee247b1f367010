"""Pipeline: the one place that knows the order of the stages.

``run_sql`` is the guarded path for one statement (guard, then read-only execution).
``Scorer`` gives K sampled answers from any system a governed verdict (execute what has no
result, check sample 0, agree, score, gate). ``Agent`` answers a question from a semantic layer
(refuse?, resolve, decide, plan, validate, execute, verify and check, write, score, gate).
"""

from assay.pipeline._agent import MAX_QUESTION_CHARS, Agent
from assay.pipeline._guarded import EVIDENCE_ROWS, GuardedRun, run_sql
from assay.pipeline._layer_answer import LayerAnswer
from assay.pipeline._react import AgentRun, ReactAgent
from assay.pipeline._scorer import Judge, Scorer
from assay.pipeline._verdict import (
    BEHAVIOUR_RULES,
    GUARD_REFUSAL,
    MONITOR_STOP,
    Decider,
    Versioned,
    build_verdict,
)
from assay.pipeline._watched import ask_agent

__all__ = [
    "BEHAVIOUR_RULES",
    "EVIDENCE_ROWS",
    "GUARD_REFUSAL",
    "MAX_QUESTION_CHARS",
    "MONITOR_STOP",
    "Agent",
    "AgentRun",
    "Decider",
    "GuardedRun",
    "Judge",
    "LayerAnswer",
    "ReactAgent",
    "Scorer",
    "Versioned",
    "ask_agent",
    "build_verdict",
    "run_sql",
]
