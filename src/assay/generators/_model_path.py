"""The optional model path: a language model asked only two narrow questions.

1. Which defined metric does a phrase mean? Asked only when the lexicon found none; the reply
   must name a defined metric or it is discarded (a claim that the concept is missing is
   discarded too: the rules, not the model, decide to abstain).
2. What SQL computes the resolved question? Sampled K times; every sample is re-validated by
   the guard before it runs, and its result only counts as agreement (or not) with the governed
   planner's answer, which stays the answer shown.

A low agreement or nothing usable escalates to a second, larger endpoint when one is configured;
both calls are billed. Every call is logged with its endpoint and tokens.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from assay.catalog import Catalog
from assay.errors import ConfigError, LLMUnavailable
from assay.generators._llm import ChatClient, ChatEndpoint, checked_endpoint
from assay.generators._reply import extract_sql
from assay.semantic import Metric, Resolution, SemanticLayer
from assay.settings import DEFAULTS, Settings

__all__ = ["SAMPLING_TEMPERATURE", "ModelPath", "ModelSamples", "model_path_from_settings"]

# The temperature every sample is drawn at, on the plain path and for the agent's N runs: at 0
# a model repeats itself, and agreement among repeats measures nothing.
SAMPLING_TEMPERATURE = 0.7


@dataclass
class ModelSamples:
    """SQL proposed by the model(s), with what it cost and what went wrong."""

    sql: list[str | None] = field(default_factory=list)
    usage: list[dict[str, Any]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    escalated: bool = False
    # the samples (by index into ``sql``) whose request failed, with the failure
    failed: dict[int, str] = field(default_factory=dict)


@dataclass
class ModelPath:
    primary: ChatClient
    escalation: ChatClient | None = None
    n_samples: int = DEFAULTS.n_samples
    escalate_below: float = 0.6

    def _bill(self, client: ChatClient, prompt: int, completion: int) -> dict[str, Any]:
        return {
            "endpoint": client.endpoint.base_url,
            "model": client.endpoint.model,
            "prompt_tokens": prompt,
            "completion_tokens": completion,
        }

    def choose_metric(
        self, question: str, layer: SemanticLayer
    ) -> tuple[str | None, dict[str, Any] | None]:
        """The model's reading of which defined metric a question means, re-validated."""
        listing = "\n".join(f"- {m.name}: {m.label}" for m in layer.metrics)
        messages = [
            {
                "role": "system",
                "content": "You map a business question to one defined metric. "
                'Reply with JSON only: {"metric": "<name>"}, or {"metric": null} if none fits.',
            },
            {"role": "user", "content": f"Defined metrics:\n{listing}\n\nQuestion: {question}"},
        ]
        reply = self.primary.complete(messages)
        usage = self._bill(self.primary, reply.prompt_tokens, reply.completion_tokens)
        match = re.search(r"\{.*\}", reply.texts[0], re.S)
        try:
            name = json.loads(match.group(0)).get("metric") if match else None
        except (json.JSONDecodeError, AttributeError):
            name = None
        names = {m.name for m in layer.metrics}
        return (name if isinstance(name, str) and name in names else None), usage

    def _prompt(
        self, question: str, metric: Metric, resolution: Resolution, catalog: Catalog, dialect: str
    ) -> list[dict[str, str]]:
        schema = "\n".join(
            f"{t.name}({', '.join(c.name for c in t.columns)})" for t in catalog.tables
        )
        period = (
            (f"{resolution.period.start} (inclusive) to {resolution.period.end} (exclusive)")
            if resolution.period
            else "all time"
        )
        filters = "; ".join(metric.required_filters) or "none"
        return [
            {
                "role": "system",
                "content": f"You write one read-only {dialect} SELECT query. "
                "Reply with the SQL in a ```sql block and nothing else.",
            },
            {
                "role": "user",
                "content": f"Tables:\n{schema}\n\nMetric {metric.name}: "
                f"{metric.expression} over {metric.time_column or 'no time column'}; "
                f"required filters: {filters}.\n"
                f"Period: {period}.\nQuestion: {question}",
            },
        ]

    def _sample(
        self, client: ChatClient, messages: list[dict[str, str]], n: int, out: ModelSamples
    ) -> None:
        try:
            reply = client.complete(messages, n=n, temperature=SAMPLING_TEMPERATURE)
        except LLMUnavailable as exc:
            out.failures.append(str(exc))
            out.failed.update({len(out.sql) + i: str(exc) for i in range(n)})
            out.sql.extend([None] * n)
            return
        out.usage.append(self._bill(client, reply.prompt_tokens, reply.completion_tokens))
        out.sql.extend(extract_sql(text) for text in reply.texts)

    def sample_sql(
        self, question: str, metric: Metric, resolution: Resolution, catalog: Catalog, dialect: str
    ) -> ModelSamples:
        out = ModelSamples()
        self._sample(
            self.primary,
            self._prompt(question, metric, resolution, catalog, dialect),
            self.n_samples,
            out,
        )
        return out

    def escalate(
        self,
        question: str,
        metric: Metric,
        resolution: Resolution,
        catalog: Catalog,
        dialect: str,
        out: ModelSamples,
    ) -> bool:
        """Sample the larger endpoint too (when configured); True when it was asked."""
        if self.escalation is None:
            return False
        out.escalated = True
        self._sample(
            self.escalation,
            self._prompt(question, metric, resolution, catalog, dialect),
            self.n_samples,
            out,
        )
        return True


def model_path_from_settings(settings: Settings, transport: Any = None) -> ModelPath | None:
    """The model path the settings describe, or ``None`` when no endpoint is configured."""
    if not settings.llm_base_url:
        if settings.llm_escalation_base_url:
            raise ConfigError(
                f"An escalation endpoint {settings.llm_escalation_base_url!r} is set without a "
                "primary one.",
                hint="Set ASSAY_LLM_BASE_URL and ASSAY_LLM_MODEL too, or unset "
                "ASSAY_LLM_ESCALATION_BASE_URL.",
            )
        return None
    primary = ChatClient(ChatEndpoint.from_settings(settings), transport=transport)
    escalation = None
    if settings.llm_escalation_base_url:
        escalation = ChatClient(
            checked_endpoint(
                settings,
                settings.llm_escalation_base_url,
                settings.llm_escalation_model or settings.llm_model,
                "LLM_ESCALATION",
            ),
            transport=transport,
        )
    return ModelPath(primary, escalation, n_samples=settings.n_samples)
