"""Training, saving and applying the trajectory monitor (Sentinel Sections 3.3 and 3.4).

``train_monitor`` splits the runs into a train pool and a calibration pool sharing no group
(question template or database), fits the answerability head (t = 0 and every prefix; positive
class unanswerable) and the correctness head (prefixes of answered answerable runs), fits the
hybrid on out-of-fold head scores (5-fold, grouped), then freezes on the calibration pool: the
estimator choice (the hybrid only if its AUROC beats the head's by more than 0.005), the isotonic
maps (prefix snapshots; delivered answers, answers to unanswerable questions counted wrong), the
gate theta and s_lambda. Both heads read the monitor's ``view``: the rendered prefix as written
(``raw``) or delexicalised with the run's database schema (``delex``, see ``_delex``);
``select_view_and_c`` chooses the view and the correctness head's C by the pre-registered
leave-one-database-out rule on training runs only. ``save_monitor`` writes it with a SHA-256
over its canonical body; ``load_monitor`` refuses another version or a changed hash.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

import numpy as np

from assay.catalog import Catalog
from assay.errors import InputError
from assay.monitor._decisions import (
    LAMBDAS,
    IsotonicMap,
    Trace,
    auroc,
    choose_stop,
    chow_tau,
    gate_theta,
)
from assay.monitor._delex import delexicalise_run, lexicon
from assay.monitor._features import FEATURE_NAMES, FeatureExtractor
from assay.monitor._heads import (
    DEFAULT_C,
    BoostedHybrid,
    TextHead,
    fit_hybrid,
    fit_text_head,
    fit_text_head_counts,
    text_counts,
)
from assay.monitor._render import SCORE_TOKENS, TRAIN_TOKENS, render_prefix
from assay.monitor._trajectory import Run

if TYPE_CHECKING:
    import scipy.sparse as sp

__all__ = [
    "HEAD_C_CANDIDATES",
    "MONITOR_FORMAT",
    "MONITOR_VERSION",
    "SELECTION_MARGIN",
    "Monitor",
    "MonitorFileError",
    "View",
    "choose_view",
    "load_monitor",
    "save_monitor",
    "select_head_c",
    "select_view_and_c",
    "split_pools",
    "train_monitor",
]

MONITOR_FORMAT = "assay.monitor"
MONITOR_VERSION = "2"  # 2: the heads' view (raw or delexicalised prefixes) is frozen
# The heads' C values that select_head_c compares (DEFAULT_C among them).
HEAD_C_CANDIDATES: tuple[float, ...] = (0.25, 1.0, 4.0, 16.0)
# Pre-registered rule (Section 4.1): the hybrid only if it beats the head by more than this.
SELECTION_MARGIN = 0.005
GroupBy = Literal["group", "database"]
# What the heads read: the rendered prefix as written, or delexicalised (see _delex).
View = Literal["raw", "delex"]
VIEWS: tuple[View, ...] = ("raw", "delex")


class MonitorFileError(InputError):
    """A monitor file that cannot be trusted: another version, or a changed hash."""

    code = "input.invalid"


@dataclass(frozen=True)
class Monitor:
    """Everything frozen on the calibration pool. A missing head is None, with its reason."""

    answerability: TextHead | None
    correctness: TextHead | None
    hybrid: BoostedHybrid | None
    estimator: Literal["head", "hybrid"]
    prefix_map: IsotonicMap | None
    delivery_map: IsotonicMap | None
    theta: float | None
    stops: dict[str, float | None]
    info: dict[str, Any] = field(default_factory=dict)
    catalogs: dict[str, Catalog] = field(default_factory=dict, compare=False)
    view: View = "raw"

    def reading(self, run: Run) -> Run:
        """The run as the heads read it (delexicalised when the monitor's view says so).

        Raises:
            InputError: a delexicalising monitor given a run whose database schema it lacks.
        """
        return read_as(run, self.view, self.catalogs)

    def prefix_texts(
        self, run: Run, ts: Sequence[int], *, max_tokens: int = SCORE_TOKENS
    ) -> list[str]:
        """The rendered prefixes ``s_t`` of ``run`` for each ``t`` in ``ts``, in this view."""
        shown = self.reading(run)
        return [render_prefix(shown, t, max_tokens=max_tokens) for t in ts]

    def p_ans(self, texts: Sequence[str] | sp.csr_matrix) -> np.ndarray | None:
        """P(answerable) of each text (or of counts from ``text_counts``)."""
        if self.answerability is None:
            return None
        import scipy.sparse as sp

        counts = texts if sp.issparse(texts) else text_counts(texts)
        return 1.0 - self.answerability.score_counts(counts)

    def raw_corr(self, counts: sp.csr_matrix) -> np.ndarray | None:
        """The correctness head's uncalibrated score on counts from ``text_counts``."""
        return None if self.correctness is None else self.correctness.score_counts(counts)

    def trace(self, run: Run, extractor: FeatureExtractor | None = None) -> Trace:
        """The monitor's readings at every state of a run (``t`` = 0..T)."""
        counts = text_counts(
            self.prefix_texts(run, range(len(run.steps) + 1))
        )  # one vectorisation for both heads
        p_ans = self.p_ans(counts)
        raw = self.raw_corr(counts)
        if raw is None:
            return Trace(run, p_ans, None, None)
        p_corr = self.prefix_map(raw) if self.prefix_map is not None else raw
        p_deliver = None
        if run.final == "answer":
            d = float(raw[-1])
            if self.estimator == "hybrid" and self.hybrid is not None:
                ex = extractor or FeatureExtractor(self.catalogs)
                x = np.concatenate([[d], ex.features(run, len(run.steps))])[None, :]
                d = float(self.hybrid.score(x)[0])
            p_deliver = float(self.delivery_map(np.array([d]))[0]) if self.delivery_map else d
        return Trace(run, p_ans, p_corr, p_deliver, raw)

    def delivery_raw(self, run: Run, extractor: FeatureExtractor | None = None) -> float | None:
        """The uncalibrated delivery estimate (for calibration error before calibration)."""
        if self.correctness is None or run.final != "answer":
            return None
        d = float(self.correctness.score(self.prefix_texts(run, [len(run.steps)]))[0])
        if self.estimator == "hybrid" and self.hybrid is not None:
            ex = extractor or FeatureExtractor(self.catalogs)
            x = np.concatenate([[d], ex.features(run, len(run.steps))])[None, :]
            d = float(self.hybrid.score(x)[0])
        return d

    def to_body(self) -> dict[str, Any]:
        return {
            "answerability": self.answerability.to_dict() if self.answerability else None,
            "correctness": self.correctness.to_dict() if self.correctness else None,
            "hybrid": self.hybrid.to_dict() if self.hybrid else None,
            "estimator": self.estimator,
            "prefix_map": _map_dict(self.prefix_map),
            "delivery_map": _map_dict(self.delivery_map),
            "theta": self.theta,
            "stops": self.stops,
            "chow_tau": {str(lam): chow_tau(lam) for lam in LAMBDAS},
            "features": list(FEATURE_NAMES),
            "view": self.view,
            "info": self.info,
        }


def read_as(run: Run, view: View, catalogs: dict[str, Catalog]) -> Run:
    """``run`` in ``view``: itself (raw), or delexicalised with its database's schema.

    Raises:
        InputError: ``delex`` for a run whose database has no schema in ``catalogs``.
    """
    if view == "raw":
        return run
    catalog = catalogs.get(run.database)
    if catalog is None:
        raise InputError(
            f"This monitor reads delexicalised prefixes and needs the schema of database "
            f"{run.database!r} (run {run.run_id!r}), which was not given.",
            hint="Pass the database's DDL with --schema (as at training).",
        )
    return delexicalise_run(run, lexicon(catalog, run.database))


def _map_dict(m: IsotonicMap | None) -> dict[str, Any] | None:
    return None if m is None else {"x": list(m.x), "y": list(m.y)}


def _map_from(raw: Any) -> IsotonicMap | None:
    return None if raw is None else IsotonicMap(tuple(raw["x"]), tuple(raw["y"]))


def split_pools(
    runs: Sequence[Run], *, fraction: float, seed: int, group_by: GroupBy = "group"
) -> tuple[list[Run], list[Run]]:
    """(train, calibration): whole groups go to one pool, ``fraction`` of groups to calibration,
    chosen by a seeded permutation of the sorted group names."""

    def key(r: Run) -> str:
        return r.database if group_by == "database" else r.group

    groups = sorted({key(r) for r in runs})
    order = np.random.default_rng(seed).permutation(len(groups))
    n_cal = max(1, round(fraction * len(groups))) if len(groups) > 1 else 0
    cal = {groups[i] for i in order[:n_cal]}
    return [r for r in runs if key(r) not in cal], [r for r in runs if key(r) in cal]


def _prefixes(runs: Sequence[Run]) -> list[tuple[Run, int]]:
    return [(r, t) for r in runs for t in range(len(r.steps) + 1)]


def _fit_head(
    pairs: list[tuple[Run, int]],
    labels: list[int],
    name: str,
    info: dict[str, Any],
    C: float = DEFAULT_C,
) -> TextHead | None:
    if len(set(labels)) < 2:
        info[f"{name}_reason"] = f"not fitted: {len(labels)} prefixes with one class only"
        return None
    texts = [render_prefix(r, t, max_tokens=TRAIN_TOKENS) for r, t in pairs]
    return fit_text_head(texts, labels, C=C)


def select_head_c(
    runs: Sequence[Run],
    *,
    candidates: Sequence[float] = HEAD_C_CANDIDATES,
    group_by: GroupBy = "database",
) -> tuple[float, dict[str, Any]]:
    """The correctness head's C on raw prefixes (``select_view_and_c`` with the raw view only)."""
    _view, c, info = select_view_and_c(
        runs, {}, candidates=candidates, views=("raw",), group_by=group_by
    )
    return c, info


def select_view_and_c(
    runs: Sequence[Run],
    catalogs: dict[str, Catalog],
    *,
    candidates: Sequence[float] = HEAD_C_CANDIDATES,
    views: Sequence[View] = VIEWS,
    group_by: GroupBy = "database",
) -> tuple[View, float, dict[str, Any]]:
    """The heads' view (raw or delexicalised prefixes) and the correctness head's C, chosen by
    grouped cross-validation on the given (training) runs only.

    Pre-registered rule (fixed before any held-out number of this version was looked at): each
    group (database, or question template) is held out in turn; the head is fit on every prefix
    of the other groups' answered answerable runs, in each view and with each C, and scored on
    the held group's terminal snapshots. A (view, C) scores the mean held-group AUROC. Within a
    view the best C wins, ties toward the smaller C (stronger regularisation). The delexicalised
    view is chosen only if its best beats the raw view's best by more than ``SELECTION_MARGIN``
    (the paper's prefer-the-simpler margin); otherwise raw. Runs whose step count leaks the label
    are left out. The delexicalised view is a candidate only when every run's database has a
    schema in ``catalogs``. With fewer than two groups there is nothing to cross-validate: raw
    and ``DEFAULT_C``, said so."""
    usable = [
        r
        for r in runs
        if not r.step_count_leaks and r.final == "answer" and r.answerable and r.correct is not None
    ]

    def key(r: Run) -> str:
        return r.database if group_by == "database" else r.group

    groups = sorted({key(r) for r in usable})
    missing = sorted({r.database for r in usable} - set(catalogs))
    views = [v for v in views if v == "raw" or not missing]
    info: dict[str, Any] = {
        "group_by": group_by,
        "groups": groups,
        "candidates": list(candidates),
        "views": list(views),
        "margin": SELECTION_MARGIN,
        "rule": "best mean held-group AUROC per view (ties: smaller C); delex only if it beats "
        "raw by more than the margin",
    }
    if missing:
        info["delex_not_a_candidate"] = f"no schema for databases {missing}"
    if len(groups) < 2:
        return _raw_default(info, "fewer than two groups")
    scores: dict[tuple[View, float], list[float]] = {(v, c): [] for v in views for c in candidates}
    for view in views:
        shown = [read_as(r, view, catalogs) for r in usable]
        for held in groups:
            train = [d for r, d in zip(usable, shown, strict=True) if key(r) != held]
            test = [d for r, d in zip(usable, shown, strict=True) if key(r) == held]
            pairs = _prefixes(train)
            labels = [int(bool(r.correct)) for r, _ in pairs]
            y = [int(bool(r.correct)) for r in test]
            if len(set(labels)) < 2 or len(set(y)) < 2:
                continue
            counts = text_counts([render_prefix(r, t, max_tokens=TRAIN_TOKENS) for r, t in pairs])
            finals = text_counts([render_prefix(r, len(r.steps)) for r in test])
            for c in candidates:
                head = fit_text_head_counts(counts, labels, C=c)
                scores[(view, c)].append(auroc(head.score_counts(finals).tolist(), y))
    means = {vc: float(np.mean(v)) if v else math.nan for vc, v in scores.items()}
    info["mean_auroc"] = {f"{v}:{c:g}": means[(v, c)] for v, c in scores}
    info["auroc_by_group"] = {f"{v}:{c:g}": scores[(v, c)] for v, c in scores}
    best: dict[View, tuple[float, float]] = {}
    for view in views:
        valid = [c for c in sorted(candidates) if not math.isnan(means[(view, c)])]
        if valid:
            c = max(valid, key=lambda c: (means[(view, c)], -c))
            best[view] = (means[(view, c)], c)
    if not best:
        return _raw_default(info, "no group had both classes")
    chosen = choose_view({v: m for v, (m, _c) in best.items()})
    info["best_by_view"] = {v: {"mean_auroc": m, "C": c} for v, (m, c) in best.items()}
    return chosen, best[chosen][1], info | {"chosen": best[chosen][1], "view": chosen}


def _raw_default(info: dict[str, Any], reason: str) -> tuple[View, float, dict[str, Any]]:
    """The selection when it cannot be made: the raw view and the default C, with why."""
    return "raw", DEFAULT_C, info | {"chosen": DEFAULT_C, "view": "raw", "reason": reason}


def choose_view(best: dict[View, float]) -> View:
    """The pre-registered view rule on each view's best mean held-group AUROC: ``delex`` only if
    it beats ``raw`` by more than ``SELECTION_MARGIN``.

    Example:
        >>> choose_view({"raw": 0.80, "delex": 0.804}), choose_view({"raw": 0.80, "delex": 0.81})
        ('raw', 'delex')
    """
    if "raw" not in best:
        return "delex"
    if "delex" in best and best["delex"] > best["raw"] + SELECTION_MARGIN:
        return "delex"
    return "raw"


def _oof_terminal(runs: list[Run], n_folds: int = 5, C: float = DEFAULT_C) -> np.ndarray:
    """Out-of-fold correctness-head scores of each run's terminal snapshot (grouped folds)."""
    groups = sorted({r.group for r in runs})
    fold_of = {g: i % n_folds for i, g in enumerate(groups)}
    out = np.full(len(runs), np.nan)
    for k in range(n_folds):
        train = [r for r in runs if fold_of[r.group] != k]
        held = [i for i, r in enumerate(runs) if fold_of[r.group] == k]
        pairs = _prefixes(train)
        labels = [int(bool(r.correct)) for r, _ in pairs]
        if not held or len(set(labels)) < 2:
            continue
        texts = [render_prefix(r, t, max_tokens=TRAIN_TOKENS) for r, t in pairs]
        head = fit_text_head(texts, labels, C=C)
        finals = [render_prefix(runs[i], len(runs[i].steps)) for i in held]
        out[held] = head.score(finals)
    return out


def train_monitor(
    runs: Sequence[Run],
    catalogs: dict[str, Catalog],
    *,
    calibration_fraction: float = 0.3,
    group_by: GroupBy = "group",
    seed: int = 42,
    head_c: float = DEFAULT_C,
    view: View = "raw",
) -> Monitor:
    """Fit and freeze a monitor on ``runs`` (see the module docstring); ``head_c`` is the
    correctness head's C and ``view`` what both heads read (``select_view_and_c`` chooses them
    on training runs only).

    Raises:
        InputError: ``view`` delex and a run whose database has no schema in ``catalogs``.
    """
    info: dict[str, Any] = {
        "seed": seed,
        "group_by": group_by,
        "n_runs_given": len(runs),
        "head_c": head_c,
        "view": view,
    }
    leaking = [r for r in runs if r.step_count_leaks]
    usable = [r for r in runs if not r.step_count_leaks]
    info["excluded_step_count_leaks"] = len(leaking)
    train, cal = split_pools(usable, fraction=calibration_fraction, seed=seed, group_by=group_by)
    info["n_train"], info["n_calibration"] = len(train), len(cal)
    info["databases"] = sorted({r.database for r in usable})
    info["schema_databases"] = sorted(catalogs)
    info["agents"] = sorted({r.agent for r in usable})
    # The heads read each run in the chosen view; the features read the run itself.
    shown = [read_as(r, view, catalogs) for r in train]
    # Answerability: positive class unanswerable (Section 3.3).
    ans_pairs = [(r, t) for r, t in _prefixes(shown) if r.answerable is not None]
    answerability = _fit_head(
        ans_pairs, [int(r.answerable is False) for r, _ in ans_pairs], "answerability", info
    )
    # Correctness: answered answerable runs only, every prefix labelled with the outcome.
    corr_idx = [
        i
        for i, r in enumerate(train)
        if r.final == "answer" and r.answerable and r.correct is not None
    ]
    corr_runs = [train[i] for i in corr_idx]
    corr_pairs = _prefixes([shown[i] for i in corr_idx])
    correctness = _fit_head(
        corr_pairs, [int(bool(r.correct)) for r, _ in corr_pairs], "correctness", info, head_c
    )
    extractor = FeatureExtractor(catalogs)
    hybrid = None
    if correctness is not None:
        oof = _oof_terminal([shown[i] for i in corr_idx], C=head_c)
        ok = ~np.isnan(oof)
        x = np.array(
            [
                np.concatenate([[s], extractor.features(r, len(r.steps))])
                for s, r in zip(oof, corr_runs, strict=True)
            ]
        )
        y = [int(bool(r.correct)) for r in corr_runs]
        if ok.sum() > 1 and len({y[i] for i in np.flatnonzero(ok)}) == 2:
            hybrid = fit_hybrid(x[ok], [y[i] for i in np.flatnonzero(ok)], seed=seed)
    draft = Monitor(
        answerability, correctness, hybrid, "head", None, None, None, {}, info, catalogs, view
    )
    return _freeze(draft, cal, extractor)


def _freeze(draft: Monitor, cal: list[Run], extractor: FeatureExtractor) -> Monitor:
    info = dict(draft.info)
    traces = [draft.trace(r, extractor) for r in cal]
    prefix_map = None
    if draft.correctness is not None:
        xs = [
            float(v)
            for tr in traces
            if tr.run.delivered_correct is not None and tr.p_corr is not None
            for v in tr.p_corr
        ]
        ys = [
            int(bool(tr.run.delivered_correct))
            for tr in traces
            if tr.run.delivered_correct is not None and tr.p_corr is not None
            for _ in tr.p_corr
        ]
        prefix_map = IsotonicMap.fit(xs, ys)
        info["calibration_pool"] = {
            "runs": len(cal),
            "prefix_snapshots": len(xs),
            "prefix_positive": int(sum(ys)),
        }
    # Every answer delivered in the calibration pool; an answer to an unanswerable question is
    # wrong whether or not it carries a correctness label (delivered_correct says so).
    answered = [r for r in cal if r.final == "answer" and r.delivered_correct is not None]
    labels = [int(bool(r.delivered_correct)) for r in answered]
    estimator: Literal["head", "hybrid"] = "head"
    delivery_map = None
    if draft.correctness is not None and answered:
        head_monitor = _replace(draft, estimator="head")
        d_head = [head_monitor.delivery_raw(r, extractor) or 0.0 for r in answered]
        a_head = auroc(d_head, labels) if len(set(labels)) == 2 else math.nan
        a_hyb = math.nan
        d_hyb: list[float] = []
        if draft.hybrid is not None and len(set(labels)) == 2:
            hyb_monitor = _replace(draft, estimator="hybrid")
            d_hyb = [hyb_monitor.delivery_raw(r, extractor) or 0.0 for r in answered]
            a_hyb = auroc(d_hyb, labels)
        info["selection"] = {
            "auroc_head": a_head,
            "auroc_hybrid": a_hyb,
            "margin": SELECTION_MARGIN,
        }
        if not math.isnan(a_hyb) and a_hyb > a_head + SELECTION_MARGIN:
            estimator = "hybrid"
        delivery_map = IsotonicMap.fit(d_hyb if estimator == "hybrid" else d_head, labels)
        info.setdefault("calibration_pool", {"runs": len(cal)})
        info["calibration_pool"] |= {
            "delivered_answers": len(labels),
            "delivered_correct": int(sum(labels)),
        }
    staged = _replace(
        draft, estimator=estimator, prefix_map=prefix_map, delivery_map=delivery_map, info=info
    )
    traces = [staged.trace(r, extractor) for r in cal]
    theta = None
    mins = [float(np.min(tr.p_ans)) for tr in traces if tr.p_ans is not None and tr.run.answerable]
    if staged.answerability is not None:
        theta = gate_theta(mins)
    stops: dict[str, float | None] = {}
    agent_traces = [tr for tr in traces if tr.run.final != "none"]
    for lam in LAMBDAS:
        if staged.correctness is None or not agent_traces:
            stops[str(lam)] = None
            continue
        stop, _rs, _saved = choose_stop(agent_traces, theta=theta, tau=chow_tau(lam), lam=lam)
        stops[str(lam)] = stop
    return _replace(staged, theta=theta, stops=stops)


def _replace(m: Monitor, **changes: Any) -> Monitor:
    from dataclasses import replace

    return replace(m, **changes)


def _digest(body: dict[str, Any]) -> str:
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), allow_nan=True)
    return hashlib.sha256(text.encode()).hexdigest()


def save_monitor(monitor: Monitor, path: Path) -> str:
    """Write the monitor with its hash (through a temporary file); returns the hash."""
    body = json.loads(json.dumps(monitor.to_body(), allow_nan=True))
    digest = _digest(body)
    record = {"format": MONITOR_FORMAT, "version": MONITOR_VERSION, "sha256": digest, "body": body}
    tmp = path.with_name(path.name + ".partial")
    tmp.write_text(json.dumps(record, sort_keys=True), encoding="utf-8")
    tmp.replace(path)
    return digest


def load_monitor(path: Path, catalogs: dict[str, Catalog] | None = None) -> Monitor:
    """Read a saved monitor.

    Raises:
        MonitorFileError: another format or version, or a body whose hash changed.
    """
    try:
        record = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MonitorFileError(f"Cannot read monitor file {str(path)!r}: {exc}.") from exc
    if not isinstance(record, dict) or record.get("format") != MONITOR_FORMAT:
        raise MonitorFileError(f"{str(path)!r} is not an Assay monitor file.")
    if record.get("version") != MONITOR_VERSION:
        raise MonitorFileError(
            f"Monitor file {str(path)!r} is version {record.get('version')!r}; this Assay reads "
            f"version {MONITOR_VERSION!r}.",
            hint="Retrain it with `assay monitor train`.",
        )
    body = record.get("body")
    if not isinstance(body, dict) or _digest(body) != record.get("sha256"):
        raise MonitorFileError(
            f"Monitor file {str(path)!r} does not match its sha256: it was changed after saving.",
            hint="Retrain it with `assay monitor train`; never edit a saved monitor.",
        )
    return Monitor(
        TextHead.from_dict(body["answerability"]) if body["answerability"] else None,
        TextHead.from_dict(body["correctness"]) if body["correctness"] else None,
        BoostedHybrid.from_dict(body["hybrid"]) if body["hybrid"] else None,
        body["estimator"],
        _map_from(body["prefix_map"]),
        _map_from(body["delivery_map"]),
        body["theta"],
        dict(body["stops"]),
        dict(body["info"]),
        dict(catalogs or {}),
        _view_from(body.get("view"), path),
    )


def _view_from(raw: Any, path: Path) -> View:
    if raw == "raw" or raw == "delex":
        return cast(View, raw)
    raise MonitorFileError(f"Monitor file {str(path)!r} names an unknown view {raw!r}.")
