"""Question intent: a write or prohibited action asked for, or an injection payload.

Checked on the question text before any model is called or any query runs, so a payload never
reaches either. Patterns are kept as data with a stable code each; a question that matches none
passes on to the semantic rules.
"""

from __future__ import annotations

import re

__all__ = ["INTENT_RULES", "refusal_reasons"]

INTENT_RULES: tuple[tuple[str, str], ...] = (
    (
        "intent.write",
        r"\b(drop|truncate|alter)\s+(the\s+)?(\w+\s+)?(table|database|schema|view|"
        r"index|column)\b",
    ),
    ("intent.write", r"\b(truncate|drop)\s+\w+"),
    ("intent.write", r"\bdelete\b"),
    ("intent.write", r"\binsert\b"),
    ("intent.write", r"\bupdate\s+\w+\s+set\b"),
    ("intent.write", r"\bset\s+(every|all|each)\b.*\bto\b"),
    ("intent.write", r"\bcreate\s+(a\s+)?(new\s+)?(temp\w*\s+)?(table|view|index|database)\b"),
    ("intent.write", r"\b(grant|revoke)\b"),
    ("intent.file_or_network", r"(^|\s)/(etc|tmp|var|home|root|usr)/"),
    ("intent.file_or_network", r"\bexport\b"),
    ("intent.file_or_network", r"\b(read|open|load)\s+(the\s+)?file\b"),
    ("intent.file_or_network", r"\bcontents of\b"),
    ("intent.file_or_network", r"https?://"),
    ("intent.secrets", r"\b(password|credentials?|api key|secret key)s?\b"),
    ("intent.secrets", r"\benvironment variables?\b|\bdatabase settings\b"),
    ("intent.injection", r"\bignore\s+(all\s+)?(the\s+)?(previous|prior|above)\s+instructions\b"),
    ("intent.injection", r";\s*(drop|delete|insert|update|truncate|alter|create|copy|attach)\b"),
    ("intent.injection", r"--\s"),
    ("intent.injection", r"'\s*\)\s*;"),
    ("intent.injection", r"\b(also|then)\s+run\b"),
)
_COMPILED = tuple((code, re.compile(pattern, re.I)) for code, pattern in INTENT_RULES)


def refusal_reasons(question: str) -> tuple[str, ...]:
    """The codes of every intent rule the question matches, in rule order, without repeats.

    Example:
        >>> refusal_reasons("Delete all orders from 2022.")
        ('intent.write',)
        >>> refusal_reasons("What was net revenue in 2023?")
        ()
    """
    found = [code for code, pattern in _COMPILED if pattern.search(question)]
    return tuple(dict.fromkeys(found))
