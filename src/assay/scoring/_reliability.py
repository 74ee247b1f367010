"""``SamplerReliability``: each sampler's measured share of right answers, as agreement weights.

When the K samples come from different systems (or prompts, or temperatures) whose accuracy
has been measured on labelled questions, agreement can weigh each sample by it: a match with
a reliable sampler says more than a match with an unreliable one. The file is JSON::

    {"kind": "assay.sampler_reliability", "version": 1,
     "samplers": {"dailsql_gpt4": 0.78, "graphix_t5": 0.71}, "n": {"dailsql_gpt4": 120, ...}}

A reliability is the Laplace-smoothed share of right answers, ``(right + 1) / (n + 2)``, so it
is never 0 or 1 and a sampler measured on few questions stays near 1/2.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from assay.errors import InputError

__all__ = ["SamplerReliability", "fit_reliability"]

KIND = "assay.sampler_reliability"


@dataclass(frozen=True)
class SamplerReliability:
    """Measured reliabilities by sampler name, and how many labelled answers each rests on."""

    samplers: Mapping[str, float]
    n: Mapping[str, int] = field(default_factory=dict)

    def weights(self, names: Sequence[str | None]) -> tuple[float, ...] | None:
        """One weight per sample, or ``None`` when any sample's sampler is unnamed or was
        never measured (agreement then stays unweighted, and the verdict says why)."""
        if not names or any(name is None or name not in self.samplers for name in names):
            return None
        return tuple(float(self.samplers[str(name)]) for name in names)

    def save(self, path: Path) -> None:
        record = {"kind": KIND, "version": 1, "samplers": dict(self.samplers), "n": dict(self.n)}
        Path(path).write_text(json.dumps(record, indent=2, sort_keys=True) + "\n", "utf-8")

    @classmethod
    def load(cls, path: Path) -> SamplerReliability:
        try:
            raw = json.loads(Path(path).read_text(encoding="utf-8"))
            samplers = {str(k): float(v) for k, v in raw["samplers"].items()}
            kind = raw.get("kind")
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise InputError(
                f"Cannot read sampler reliabilities from {str(path)!r}: {exc}.",
                hint=f'Write JSON: {{"kind": "{KIND}", "samplers": {{"name": 0.8}}}}.',
            ) from exc
        bad = {k: v for k, v in samplers.items() if not (math.isfinite(v) and 0 < v <= 1)}
        if kind != KIND or bad:
            raise InputError(
                f"{str(path)!r} is not a sampler reliability file (kind {kind!r}) or has "
                f"reliabilities outside (0, 1]: {bad}.",
                hint=f'Give "kind": "{KIND}" and every reliability in (0, 1].',
            )
        return cls(samplers, {str(k): int(v) for k, v in (raw.get("n") or {}).items()})


def fit_reliability(correct: Mapping[str, Sequence[bool]]) -> SamplerReliability:
    """Laplace-smoothed share of right answers per sampler.

    Example:
        >>> fit_reliability({"a": [True, True, False]}).samplers["a"]
        0.6
    """
    return SamplerReliability(
        {name: (sum(flags) + 1) / (len(flags) + 2) for name, flags in sorted(correct.items())},
        {name: len(flags) for name, flags in sorted(correct.items())},
    )
