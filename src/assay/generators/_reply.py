"""``extract_sql``: the one reader of the SQL in a model's reply, on both model paths.

A reply carries its query in a Markdown fence (```` ```sql ... ``` ````), in a labelled field of
the agent's protocol (``SQL:`` / ``FINAL_SQL:``, the query itself fenced or in backticks at
times), or as the whole reply when it starts with SELECT or WITH. Plain ``assay ask`` and the
agent read replies with these same functions (``reply_fields``, ``unfenced``): the plain path
read a ``SQL: SELECT ...`` reply as one with no SQL while the agent took it (outside recheck 38).
"""

from __future__ import annotations

import re

__all__ = ["extract_sql", "reply_fields", "unfenced"]

# The agent protocol's fields (Sentinel Appendix H), each at the start of a line.
_FIELD = re.compile(r"^\s*(THOUGHT|SQL|FINAL_SQL|FINAL|BEST_SO_FAR)\s*:\s*", re.MULTILINE)
# A query a model wraps in a Markdown fence (```sql ... ```) or in backticks: the query is inside.
_FENCED = re.compile(r"^```[\w+-]*[ \t]*\n?(.*?)```", re.DOTALL)
# A fenced block anywhere in a reply (the plain path asks for one, and models add prose around).
_FENCE = re.compile(r"```(?:sql)?\s*(.+?)```", re.S | re.I)


def reply_fields(text: str) -> dict[str, str]:
    """The labelled fields of a reply, each up to the next label (the first of a name wins).

    Example:
        >>> reply_fields("THOUGHT: count\\nSQL: SELECT 1")
        {'THOUGHT': 'count', 'SQL': 'SELECT 1'}
    """
    fields: dict[str, str] = {}
    marks = list(_FIELD.finditer(text))
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        fields.setdefault(mark.group(1), text[mark.end() : end].strip())
    return fields


def unfenced(text: str) -> str:
    """The query of one field, out of a Markdown fence or backticks when the model wrapped it
    (``FINAL_SQL:`` then a ```sql block is common; the fence reached the guard as the query and
    was refused at every step, so a right answer ended as ``agent.max_steps``, outside tryout
    38). Text after the fence (an explanation) is not the query.

    Example:
        >>> unfenced("```sql\\nSELECT 1;\\n```\\nThat counts them.")
        'SELECT 1'
    """
    text = text.strip()
    fenced = _FENCED.match(text)
    if fenced:
        text = fenced.group(1).strip()
    elif len(text) > 1 and text[0] == text[-1] == "`":
        text = text.strip("`").strip()
    return text.rstrip(";").strip()


def extract_sql(text: str) -> str | None:
    """The SQL in a reply: a fenced block, else a labelled ``FINAL_SQL:`` or ``SQL:`` field,
    else a reply that starts with SELECT or WITH; None when there is none.

    Example:
        >>> extract_sql("Here:\\n```sql\\nSELECT 1\\n```")
        'SELECT 1'
        >>> extract_sql("THOUGHT: one row\\nSQL: SELECT 1;")
        'SELECT 1'
    """
    match = _FENCE.search(text)
    if match:
        return match.group(1).strip().rstrip(";") or None
    fields = reply_fields(text)
    labelled = unfenced(fields.get("FINAL_SQL", "")) or unfenced(fields.get("SQL", ""))
    if labelled:
        return labelled
    stripped = text.strip()
    if re.match(r"(?is)^(select|with)\b", stripped):
        return stripped.rstrip(";")
    return None
