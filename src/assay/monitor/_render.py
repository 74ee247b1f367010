"""The plain-text rendering of a run prefix, as the heads read it (Sentinel Appendix L).

``render_prefix(run, t)`` is the question followed by each of the first ``t`` steps' thought,
query and result; the final answer line is added only to the terminal snapshot (``t`` equal to
the number of steps), so a prefix holds exactly what was knowable at that state. The text is
left-truncated to ``max_tokens`` whitespace tokens so that the latest steps are always kept
(Section 3.3: 2,048 tokens in training, 4,096 at scoring).
"""

from __future__ import annotations

from assay.monitor._trajectory import Run, Step

__all__ = ["SAMPLE_CHARS", "SCORE_TOKENS", "TRAIN_TOKENS", "render_prefix", "render_result"]

TRAIN_TOKENS = 2048
SCORE_TOKENS = 4096
# A result is shown as its size and a sample, as in Appendix L; 300 characters hold the three
# sample rows of the paper's example.
SAMPLE_CHARS = 300


def render_result(step: Step) -> str:
    """``empty (0 rows)``, ``3 rows x 2 cols; sample ...`` or ``error: ...``.

    Example:
        >>> render_result(Step("sql", sql="SELECT 1", row_count=0))
        'empty (0 rows)'
    """
    if step.error is not None:
        return f"error: {step.error[:SAMPLE_CHARS]}"
    if step.row_count == 0:
        return "empty (0 rows)"
    size = "" if step.row_count is None else f"{step.row_count} rows"
    if size and step.n_columns is not None:
        size += f" x {step.n_columns} cols"
    sample = step.observation[:SAMPLE_CHARS]
    if size and sample:
        return f"{size}; sample {sample}"
    return size or sample or "no result"


def _render_step(number: int, step: Step) -> list[str]:
    lines: list[str] = []
    if step.thought:
        lines.append(f"STEP {number} THOUGHT: {step.thought}")
    if step.action == "final_null":
        return lines
    if step.sql is not None:
        label = "FINAL_SQL" if step.action == "final_sql" else "SQL"
        lines.append(f"STEP {number} {label}: {step.sql}")
        lines.append(f"STEP {number} RESULT: {render_result(step)}")
    elif step.action == "submit":
        lines.append(f"STEP {number} ACTION: submit")
    else:
        lines.append(f"STEP {number} ACTION: {step.observation[:SAMPLE_CHARS]}")
    return lines


def render_prefix(run: Run, t: int, *, max_tokens: int = SCORE_TOKENS) -> str:
    """The state ``s_t``: the question and the first ``t`` steps, left-truncated.

    Example:
        >>> r = Run("r1", "How many?", "db", (Step("sql", sql="SELECT 1", row_count=1),))
        >>> render_prefix(r, 0)
        'QUESTION: How many?'
    """
    lines = [f"QUESTION: {run.question}"]
    for i, step in enumerate(run.steps[:t], start=1):
        lines.extend(_render_step(i, step))
    if t >= len(run.steps):
        if run.final == "answer":
            lines.append(f"FINAL_SQL: {run.final_sql}")
        elif run.final == "abstain":
            lines.append("FINAL: null (abstained)")
    text = "\n".join(lines)
    words = text.split()
    if len(words) > max_tokens:
        text = " ".join(words[-max_tokens:])
    return text
