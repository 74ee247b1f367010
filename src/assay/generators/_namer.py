"""Tier C's proposer: the configured model suggests a name, a type and a regex for a column.

The model only proposes; ``assay.catalog.verify_proposal`` decides (the regex must compile, be
non-trivial and fully match at least 90% of the sampled values). Used only when a model endpoint
is configured; any failure of the model is "no proposal".
"""

from __future__ import annotations

import json
import re
from typing import Any

from assay.catalog import ColumnFingerprint, Namer, NamerProposal
from assay.errors import GenerationError
from assay.settings import Settings

__all__ = ["PROMPT_VERSION", "chat_namer"]

PROMPT_VERSION = "namer-1"
_PROMPT = (
    "A database column's values are below, without its name. Propose what it is as JSON: "
    '{"pattern_name": "...", "semantic_type": "...", "verification_regex": "..."}, where the '
    "regex fully matches the values. Reply with the JSON object only.\nValues:\n"
)


def _parse(text: str) -> NamerProposal | None:
    match = re.search(r"\{.*\}", text, re.S)
    if not match:
        return None
    try:
        data: Any = json.loads(match.group(0))
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    fields = [data.get(k) for k in ("pattern_name", "semantic_type", "verification_regex")]
    if not all(isinstance(f, str) and f for f in fields):
        return None
    return NamerProposal(str(fields[0]), str(fields[1]), str(fields[2]))


def chat_namer(settings: Settings, transport: Any = None) -> Namer | None:
    """A namer backed by the configured chat endpoint, or ``None`` when none is configured."""
    if not settings.llm_base_url or not settings.llm_model:
        return None
    from assay.generators._llm import ChatClient, ChatEndpoint

    client = ChatClient(ChatEndpoint.from_settings(settings), transport=transport)

    def namer(fp: ColumnFingerprint, values: list[str]) -> NamerProposal | None:
        shown = "\n".join(v[:80] for v in values[:50])
        try:
            reply = client.complete([{"role": "user", "content": _PROMPT + shown}], n=1)
        except GenerationError:
            return None
        return _parse(reply.texts[0]) if reply.texts else None

    return namer
