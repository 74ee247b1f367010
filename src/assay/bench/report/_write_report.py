"""Writing a report folder: ``report.json`` (every number), ``report.html`` (the tables, each
hypothesis pass or fail) and PNG figures, all from the report dictionary alone.

The folder is built beside the target and swapped in only when complete, so a failed run never
leaves a partial report over a good one. PNGs carry no timestamp or version metadata, so a rerun
on the same inputs is byte-identical.
"""

from __future__ import annotations

import html
import json
import os
import shutil
from pathlib import Path
from typing import Any

__all__ = ["write_report"]

FIGURES = ("accuracy_by_share.png", "risk_coverage.png", "reliability.png", "histograms.png")


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return html.escape(str(value))


def _table(title: str, head: list[str], rows: list[list[Any]]) -> str:
    cells = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{_fmt(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<h2>{html.escape(title)}</h2><table><tr>{cells}</tr>{body}</table>"


def _html(report: dict[str, Any]) -> str:
    rules = report["rules"]
    t1 = [
        [
            n,
            r["rule"].get("version"),
            r["n"],
            r["n_right"],
            f"{_fmt(r['auroc']['value'])} [{_fmt(r['auroc']['low'])}, {_fmt(r['auroc']['high'])}]",
            r["ece"],
            r["brier"],
            r["aurc"]["aurc"],
            r["aurc"]["normalised"],
        ]
        for n, r in rules.items()
    ]
    t4 = [
        [k, v["value"], v["low"], v["high"], v["n_usable"]]
        for k, v in report["comparisons"].items()
    ]
    hyp = [
        [
            h["id"],
            h["statement"],
            h["metric"],
            h["rule"],
            h.get("baseline", ""),
            h["criterion"],
            h["threshold"],
            h.get("value"),
            h["result"].upper() + (f" ({h['reason']})" if h.get("reason") else ""),
        ]
        for h in report["hypotheses"]
    ]
    t6 = [
        [
            n,
            r["gate"]["pass_accuracy"],
            r["gate"]["pass_share"],
            r["gate"]["correct_withheld"],
            r["gate"]["wrong_withheld"],
            *r["reliability_score"].values(),
        ]
        for n, r in rules.items()
    ]
    t8 = [
        [
            n,
            c["show"]["right"],
            c["show"]["wrong"],
            c["warn"]["right"],
            c["warn"]["wrong"],
            c["withhold"]["right"],
            c["withhold"]["wrong"],
        ]
        for n, c in ((n, r["gate"]["counts"]) for n, r in rules.items())
    ]
    inputs = "".join(
        f"<li><code>{html.escape(k)}</code> {html.escape(v)}</li>"
        for k, v in report["inputs"].items()
    )
    figures = "".join(f'<figure><img src="{f}" alt="{f}"></figure>' for f in FIGURES)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Assay report</title>
<style>body{{font-family:sans-serif;max-width:1100px;margin:2em auto}}
table{{border-collapse:collapse;margin-bottom:1.5em}}td,th{{border:1px solid #ccc;
padding:4px 8px;text-align:right}}img{{max-width:520px}}figure{{display:inline-block}}</style>
</head><body>
<h1>Assay evaluation report</h1>
<p>Scoring bundle <code>{html.escape(report["bundle"])}</code>; manifest
<code>{html.escape(report["manifest"] or "none")}</code>; {report["n_questions"]} questions;
{report["n_resamples"]} bootstrap resamples, seed {report["seed"]}.</p>
<ul>{inputs}</ul>
{
        _table(
            "Table 1. Discrimination and calibration",
            [
                "rule",
                "version",
                "n",
                "right",
                "AUROC [95% CI]",
                "ECE",
                "Brier",
                "AURC",
                "normalised AURC",
            ],
            t1,
        )
    }
{
        _table(
            "Table 4. Paired AUROC differences (same resamples)",
            ["comparison", "difference", "low", "high", "usable resamples"],
            t4,
        )
    }
{
        _table(
            "Hypotheses",
            [
                "id",
                "statement",
                "metric",
                "rule",
                "baseline",
                "criterion",
                "threshold",
                "value",
                "result",
            ],
            hyp,
        )
    }
{
        _table(
            "Table 6. Gate quantities and RS(lambda)",
            [
                "rule",
                "pass accuracy",
                "pass share",
                "correct withheld",
                "wrong withheld",
                "RS(1)",
                "RS(4)",
                "RS(9)",
            ],
            t6,
        )
    }
{
        _table(
            "Table 8. Show / warn / withhold by correctness",
            [
                "rule",
                "show right",
                "show wrong",
                "warn right",
                "warn wrong",
                "withhold right",
                "withhold wrong",
            ],
            t8,
        )
    }
{figures}
</body></html>
"""


def _figures(report: dict[str, Any], folder: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "assay", "figure.dpi": 100})
    meta = {"Software": None}
    rules = report["rules"]

    fig, ax = plt.subplots(figsize=(5, 4))
    for name, r in rules.items():
        points = r["accuracy_by_share"]
        ax.plot(
            [p["share_shown"] for p in points],
            [p["accuracy"] for p in points],
            marker="o",
            label=name,
        )
    ax.set(
        xlabel="share of answers shown",
        ylabel="accuracy of answers shown",
        title="Accuracy against share shown",
    )
    ax.legend()
    fig.savefig(folder / "accuracy_by_share.png", metadata=meta)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(5, 4))
    for name, r in rules.items():
        ax.plot(r["risk_coverage"]["coverage"], r["risk_coverage"]["risk"], label=name)
    ax.set(xlabel="coverage", ylabel="selective risk", title="Risk-coverage")
    ax.legend()
    fig.savefig(folder / "risk_coverage.png", metadata=meta)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(5, 4))
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--")
    for name, r in rules.items():
        bins = r["reliability_bins"]
        ax.plot(
            [b["confidence"] for b in bins], [b["accuracy"] for b in bins], marker="s", label=name
        )
    ax.set(xlabel="score (bin mean)", ylabel="accuracy", title="Reliability diagram")
    ax.legend()
    fig.savefig(folder / "reliability.png", metadata=meta)
    plt.close(fig)

    fig, axes = plt.subplots(1, len(rules), figsize=(4 * len(rules), 3.5), squeeze=False)
    for ax, (name, r) in zip(axes[0], rules.items(), strict=True):
        edges = [i / 20 for i in range(21)]
        ax.hist(r["scores"]["right"], bins=edges, alpha=0.6, label="right")
        ax.hist(r["scores"]["wrong"], bins=edges, alpha=0.6, label="wrong")
        ax.set(title=name, xlabel="score")
        ax.legend()
    fig.savefig(folder / "histograms.png", metadata=meta)
    plt.close(fig)


def write_report(report: dict[str, Any], out: Path) -> Path:
    """Write the folder atomically: built beside ``out``, then swapped in whole."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = out.parent / f".{out.name}.partial-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    try:
        (staging / "report.json").write_text(
            json.dumps(report, indent=2, sort_keys=True) + "\n", encoding="utf-8"
        )
        (staging / "report.html").write_text(_html(report), encoding="utf-8")
        _figures(report, staging)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    old = out.parent / f".{out.name}.old-{os.getpid()}"
    if out.exists():
        out.rename(old)
    staging.rename(out)
    shutil.rmtree(old, ignore_errors=True)
    return out
