"""Pre-registration: freeze the scoring bundle and the hypotheses before the confirmatory data.

The bundle is the code and constants that turn samples into verdicts: the agreement, checks,
scoring and gate packages, hashed file by file in a fixed order, plus the thresholds and rule
versions as data. ``freeze`` writes a manifest with that hash and the hypotheses (metric,
comparison, pass criterion); a report pointed at a manifest refuses to run when the bundle has
changed since (a changed threshold changes the hash).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from assay.errors import BenchError, InputError

__all__ = [
    "BUNDLE_PACKAGES",
    "DEFAULT_HYPOTHESES",
    "Hypothesis",
    "bundle_hash",
    "check_manifest",
    "file_hash",
    "freeze",
    "load_hypotheses",
]

BUNDLE_PACKAGES = ("agreement", "checks", "scoring", "gate")


@dataclass(frozen=True)
class Hypothesis:
    """A claim stated as data, evaluated in the report.

    ``metric`` is ``auroc`` (compares two rules, paired) or a gate quantity
    (``pass_accuracy``, ``correct_withheld``, ``wrong_withheld``, ``pass_share``) of one rule.
    ``criterion`` says what passes: ``ci_low_above`` (the paired difference's interval lies above
    ``threshold``), ``at_least`` or ``at_most`` (the value against ``threshold``).
    """

    id: str
    metric: str
    rule: str
    criterion: Literal["ci_low_above", "at_least", "at_most"]
    threshold: float
    baseline: str = ""
    statement: str = ""


DEFAULT_HYPOTHESES: tuple[Hypothesis, ...] = (
    Hypothesis(
        "H1",
        "auroc",
        "agreement_first",
        "ci_low_above",
        0.0,
        "designed",
        "agreement_first ranks right above wrong answers better than designed",
    ),
    Hypothesis(
        "H2a",
        "correct_withheld",
        "agreement_first",
        "at_most",
        0.20,
        "",
        "agreement_first withholds at most 20% of correct answers",
    ),
    Hypothesis(
        "H2b",
        "pass_accuracy",
        "agreement_first",
        "at_least",
        0.90,
        "",
        "answers agreement_first shows are right at least 90% of the time",
    ),
)


def _source_root() -> Path:
    return Path(__file__).resolve().parents[2]


def bundle_hash(root: Path | None = None) -> dict[str, Any]:
    """The hash of every source file of the scoring bundle, and of its constants."""
    from assay.gate import GatePolicy
    from assay.scoring import HARD_CAP, RULES, SOFT_CAP, WEIGHTS

    root = root or _source_root()
    files: dict[str, str] = {}
    for package in BUNDLE_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            files[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    policy = GatePolicy()
    constants = {
        "hard_cap": HARD_CAP,
        "soft_cap": SOFT_CAP,
        "weights": WEIGHTS,
        "rules": {name: rule.version for name, rule in RULES.items()},
        "gate": {"show_at": policy.show_at, "warn_at": policy.warn_at, "version": policy.version},
    }
    payload = json.dumps({"files": files, "constants": constants}, sort_keys=True)
    return {
        "hash": hashlib.sha256(payload.encode()).hexdigest()[:16],
        "files": files,
        "constants": constants,
    }


def file_hash(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def load_hypotheses(path: Path | None) -> tuple[Hypothesis, ...]:
    if path is None:
        return DEFAULT_HYPOTHESES
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
        return tuple(Hypothesis(**h) for h in raw)
    except (OSError, json.JSONDecodeError, TypeError) as exc:
        raise InputError(
            f"Cannot read hypotheses from {str(path)!r}: {exc}.",
            hint='Write a JSON list of {"id", "metric", "rule", "criterion", "threshold", '
            '"baseline", "statement"}.',
        ) from exc


def freeze(
    out: Path, hypotheses: Sequence[Hypothesis] = DEFAULT_HYPOTHESES, note: str = ""
) -> dict[str, Any]:
    """Write the manifest: bundle hash, per-file hashes, constants and hypotheses."""
    bundle = bundle_hash()
    manifest = {
        "kind": "assay.prereg",
        "version": 1,
        "bundle": bundle,
        "note": note,
        "hypotheses": [asdict(h) for h in hypotheses],
    }
    out.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return manifest


def check_manifest(path: Path) -> dict[str, Any]:
    """The manifest, or ``BenchError`` naming what changed when the bundle no longer matches."""
    try:
        manifest = json.loads(Path(path).read_text(encoding="utf-8"))
        frozen = manifest["bundle"]
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise InputError(
            f"Cannot read manifest {str(path)!r}: {exc}.",
            hint="Create one with 'assay prereg freeze --out manifest.json'.",
        ) from exc
    now = bundle_hash()
    if now["hash"] != frozen["hash"]:
        changed = sorted(
            f
            for f in set(now["files"]) | set(frozen["files"])
            if now["files"].get(f) != frozen["files"].get(f)
        )
        constants = [
            k for k in now["constants"] if now["constants"][k] != frozen.get("constants", {}).get(k)
        ]
        raise BenchError(
            f"The scoring bundle no longer matches the frozen manifest {str(path)!r} (frozen "
            f"{frozen['hash']}, now {now['hash']}); changed: "
            f"{', '.join(changed + constants) or 'unknown'}.",
            hint="Report with the frozen code, or freeze a new manifest before new data exist.",
        )
    return dict(manifest)
