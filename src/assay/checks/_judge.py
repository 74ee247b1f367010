"""An optional judge model for COMPLETE and unsupported claims, through the chat client.

The judge sees the question, the hint, the SQL, the first rows and the written answer, never a
reference answer. It lists the question's parts and whether the answer covers each, and the
answer's claims with whether the rows support them and whether each concerns the answer or only
the commentary around it. Its reply is re-validated field by field; a reply that cannot be read
leaves the terms unmeasured (never a pass).
"""

from __future__ import annotations

import json
import re
from typing import Any

from assay.checks._context import JudgeReport
from assay.errors import LLMUnavailable
from assay.generators import ChatClient
from assay.types import Candidate, jsonable

__all__ = ["JUDGE_PROMPT", "ModelJudge", "parse_judge_reply"]

JUDGE_PROMPT = """You check a written answer to a question about a database. You are not told \
the right answer; judge only from the rows the query returned.

1. List the parts of the question (each thing it asks for) and whether the answer covers each.
2. List every claim the written answer makes. For each: is it supported by the returned rows, \
and is it about the answer itself ("answer") or commentary around it ("commentary")?

Reply with JSON only:
{"parts": [{"part": "...", "covered": true}],
 "claims": [{"text": "...", "supported": true, "about": "answer"}]}"""


def parse_judge_reply(text: str, source: str) -> JudgeReport | None:
    """A judge report from the model's text, or ``None`` when it cannot be read."""
    match = re.search(r"\{.*\}", text, re.S)
    if match is None:
        return None
    try:
        raw = json.loads(match.group(0))
    except json.JSONDecodeError:
        return None
    if not isinstance(raw, dict):
        return None
    parts = [p for p in raw.get("parts") or [] if isinstance(p, dict) and "covered" in p]
    claims = [
        {
            "text": str(c.get("text", "")),
            "supported": c.get("supported") is True,
            "about": "commentary" if c.get("about") == "commentary" else "answer",
        }
        for c in raw.get("claims") or []
        if isinstance(c, dict) and isinstance(c.get("supported"), bool)
    ]
    complete = (sum(p["covered"] is True for p in parts) / len(parts)) if parts else None
    return JudgeReport.from_dict({"complete": complete, "claims": claims}, source=source)


class ModelJudge:
    """A ``Judge`` for the pipeline: ``(question, hint, candidate) -> JudgeReport | None``."""

    def __init__(self, client: ChatClient):
        self.client = client
        self.failures: list[str] = []

    def __call__(self, question: str, hint: str, candidate: Candidate) -> JudgeReport | None:
        if not candidate.text:
            return None
        result = candidate.result
        rows: Any = [[jsonable(v) for v in r] for r in result.rows[:20]] if result else None
        user = json.dumps(
            {
                "question": question,
                "hint": hint,
                "sql": candidate.final_sql,
                "columns": list(result.columns) if result else None,
                "rows": rows,
                "answer": candidate.text,
            },
            ensure_ascii=False,
        )
        try:
            reply = self.client.complete(
                [{"role": "system", "content": JUDGE_PROMPT}, {"role": "user", "content": user}]
            )
        except LLMUnavailable as exc:
            self.failures.append(str(exc))
            return None
        return parse_judge_reply(reply.texts[0], self.client.endpoint.model)
