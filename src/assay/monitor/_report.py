"""``report.html``: the evaluation numbers and the paper's figures (AUROC by step, reliability
diagram, RS against lambda). The figures need matplotlib (the ``[plots]`` extra); without it the
page says so and shows the numbers alone."""

from __future__ import annotations

import base64
import html
import io
import json
import math
from typing import Any

__all__ = ["render_html"]


def _figures(report: dict[str, Any]) -> list[tuple[str, str]]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    figures: list[tuple[str, str]] = []

    def emit(title: str, fig: Any) -> None:
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=96, bbox_inches="tight", metadata={"Software": None})
        plt.close(fig)
        figures.append((title, base64.b64encode(buffer.getvalue()).decode()))

    correctness = report.get("correctness", {})
    steps = [s for s in correctness.get("auroc_by_step", []) if not math.isnan(s["value"])]
    if steps:
        fig, ax = plt.subplots(figsize=(5, 3))
        ax.plot([s["t"] for s in steps], [s["value"] for s in steps], marker="o")
        ax.axhline(0.5, color="grey", lw=0.5)
        ax.set(xlabel="step t", ylabel="AUROC", title="Correctness AUROC by step", ylim=(0, 1))
        emit("AUROC by step", fig)
    bins = correctness.get("reliability", {})
    if bins:
        fig, ax = plt.subplots(figsize=(4, 4))
        for name, rows in sorted(bins.items()):
            ax.plot([r["mean_p"] for r in rows], [r["accuracy"] for r in rows], "o-", label=name)
        ax.plot([0, 1], [0, 1], color="grey", lw=0.5)
        ax.set(xlabel="predicted p", ylabel="observed accuracy", title="Reliability at delivery")
        ax.legend()
        emit("Reliability diagram", fig)
    rs = report.get("rs", {})
    lams = sorted((k for k in rs if k != "reason"), key=float)
    if lams:
        fig, ax = plt.subplots(figsize=(5, 3))
        for name in ("vanilla", "monitored"):
            means = [rs[k][name]["mean"] for k in lams]
            err = [
                [m - rs[k][name]["ci"][0] for m, k in zip(means, lams, strict=True)],
                [rs[k][name]["ci"][1] - m for m, k in zip(means, lams, strict=True)],
            ]
            ax.errorbar([float(k) for k in lams], means, yerr=err, marker="o", label=name)
        ax.set(xlabel="lambda", ylabel="RS(lambda)", title="Reliability score against lambda")
        ax.legend()
        emit("RS against lambda", fig)
    return figures


def render_html(report: dict[str, Any]) -> str:
    """One self-contained page: figures as inline PNG, then the full report as JSON."""
    parts = ["<!doctype html><meta charset='utf-8'><title>Assay monitor report</title>"]
    parts.append("<h1>Trajectory monitor: held-out evaluation</h1>")
    figures = _figures(report)
    if not figures:
        parts.append("<p>Figures need matplotlib: pip install 'assay[plots]'.</p>")
    for title, png in figures:
        parts.append(
            f"<h2>{html.escape(title)}</h2><img alt='{html.escape(title)}' "
            f"src='data:image/png;base64,{png}'>"
        )
    body = json.dumps(report, indent=2, sort_keys=True, default=str)
    parts.append(f"<h2>Numbers</h2><pre>{html.escape(body)}</pre>")
    return "\n".join(parts) + "\n"
