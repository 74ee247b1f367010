"""One reconstruction of a database's metadata: profile, keys, rollups, PII, tables, as facts.

``reconstruct`` runs the deep profiler and the structure finders; ``proposals`` turns what they
found into ``FactProposal`` values with the tier their evidence earns (the fact store caps and
gates them):

| fact | tier |
| --- | --- |
| a checksum-backed pattern (and the PII it proves) | PATTERN_VALIDATED |
| a regex or fingerprint pattern, stand-in, inferred key, rollup, table role | PATTERN_CONFIRMED |
| a Tier C (model-proposed, verified) pattern | INTERPRETER_ONLY |
| an inferred key whose names do not agree (containment alone) | INTERPRETER_ONLY |
| a key declared in the schema | DOC_CITED_STRONG |
| a column or table nothing could be said about | undetermined |

Inferred keys therefore wait for review (below SIBLING_CONSISTENT) until a human accepts them.
"""

from __future__ import annotations

from dataclasses import dataclass

from assay.catalog._deep import CatalogProfile, Namer, deep_profile
from assay.catalog._fingerprint import SAMPLE_ROWS
from assay.catalog._keys import InferredKey, KeyDiscovery, discover_foreign_keys
from assay.catalog._profile import SqlRunner
from assay.catalog._schema import Catalog
from assay.catalog._structure import (
    PiiFinding,
    Rollup,
    TableDescription,
    describe_tables,
    find_pii,
    find_rollups,
)
from assay.catalog._tiers import FactProposal, Tier

__all__ = ["Reconstruction", "proposals", "reconstruct"]

SOURCE = "assay.catalog"


@dataclass(frozen=True)
class Reconstruction:
    """Everything reconstructed from one database."""

    catalog: Catalog
    profile: CatalogProfile
    keys: KeyDiscovery
    rollups: tuple[Rollup, ...]
    pii: tuple[PiiFinding, ...]
    tables: tuple[TableDescription | None, ...]


def reconstruct(
    runner: SqlRunner,
    catalog: Catalog,
    *,
    rng: int = 0,
    sample_rows: int = SAMPLE_ROWS,
    namer: Namer | None = None,
) -> Reconstruction:
    """Profile ``catalog`` through ``runner`` and find its keys, rollups, PII and table roles."""
    profile = deep_profile(runner, catalog, rng=rng, sample_rows=sample_rows, namer=namer)
    keys = discover_foreign_keys(runner, profile)
    rollups = find_rollups(runner, profile, keys.keys)
    return Reconstruction(
        catalog, profile, keys, rollups, find_pii(profile), describe_tables(profile, keys.keys)
    )


def _key_fact(key: InferredKey, profile: CatalogProfile) -> FactProposal:
    return FactProposal(
        key.subject,
        "references",
        key.target,
        # containment alone (names that do not agree) is the weakest evidence of a join
        Tier.PATTERN_CONFIRMED if key.named else Tier.INTERPRETER_ONLY,
        key.containment * key.parent_unique,
        {
            "method": "inclusion_dependency",
            "containment": key.containment,
            "parent_unique": key.parent_unique,
            "n_child": key.n_child,
            "n_parent": key.n_parent,
            "window_p": key.window_p,
            "name_rank": key.name_rank,
            "names_agree": key.named,
        },
        SOURCE,
        profile.digest(f"{key.table}.{key.column}") + profile.digest(key.target)[:8],
    )


def proposals(found: Reconstruction) -> tuple[FactProposal, ...]:
    """Every fact the reconstruction proposes, in a stable order."""
    profile = found.profile
    out: list[FactProposal] = []
    for table in profile.tables:
        for report in table.columns:
            fp = report.fingerprint
            subject = f"{fp.table}.{fp.column}"
            digest = profile.digest(subject)
            best = report.best
            if best is None:
                out.append(
                    FactProposal(
                        subject,
                        "semantic_type",
                        None,
                        Tier.INTERPRETER_ONLY,
                        0.0,
                        {"family": fp.family, "error": fp.error},
                        SOURCE,
                        digest,
                        undetermined=True,
                    )
                )
            else:
                evidence = {
                    "pattern": best.name,
                    "kind": best.kind,
                    "pass_fraction": best.pass_fraction,
                    "checksum": best.checksum,
                    "sample_size": fp.sample_size,
                }
                out.append(
                    FactProposal(
                        subject,
                        "semantic_type",
                        best.semantic_type,
                        best.tier,
                        best.confidence,
                        evidence,
                        SOURCE,
                        digest,
                    )
                )
            if report.pii and best is not None:
                match = next(m for m in report.patterns if m.pii == report.pii)
                out.append(
                    FactProposal(
                        subject,
                        "pii",
                        report.pii,
                        match.tier,
                        match.confidence,
                        {
                            "pattern": match.name,
                            "checksum": match.checksum,
                            "pass_fraction": match.pass_fraction,
                        },
                        SOURCE,
                        digest,
                    )
                )
            if fp.stand_ins:
                out.append(
                    FactProposal(
                        subject,
                        "stand_in",
                        [v for v, _ in fp.stand_ins],
                        Tier.PATTERN_CONFIRMED,
                        0.70,
                        {"shares": [s for _, s in fp.stand_ins]},
                        SOURCE,
                        digest,
                    )
                )
    declared = {f"{fk.table}.{','.join(fk.columns)}" for fk in found.catalog.foreign_keys}
    out.extend(_key_fact(k, profile) for k in found.keys.keys if k.subject not in declared)
    for fk in found.catalog.foreign_keys:
        out.append(
            FactProposal(
                f"{fk.table}.{','.join(fk.columns)}",
                "references",
                f"{fk.ref_table}.{','.join(fk.ref_columns)}",
                Tier.DOC_CITED_STRONG,
                1.0,
                {"method": "declared"},
                SOURCE,
                profile.digest(fk.table),
            )
        )
    for r in found.rollups:
        out.append(
            FactProposal(
                f"{r.table}.{r.fine}",
                "alias" if r.alias else "rolls_up_to",
                f"{r.table}.{r.coarse}",
                Tier.PATTERN_CONFIRMED,
                0.70,
                {"n_fine": r.n_fine, "n_coarse": r.n_coarse, "amplification": r.amplification},
                SOURCE,
                profile.digest(f"{r.table}.{r.fine},{r.coarse}"),
            )
        )
    for table, desc in zip(profile.tables, found.tables, strict=True):
        if desc is None:
            out.append(
                FactProposal(
                    table.name,
                    "entity",
                    None,
                    Tier.INTERPRETER_ONLY,
                    0.0,
                    {"reason": "no key and no reference"},
                    SOURCE,
                    profile.digest(table.name),
                    undetermined=True,
                )
            )
            continue
        out.append(
            FactProposal(
                table.name,
                "entity",
                {"role": desc.role, "grain": list(desc.grain)},
                Tier.PATTERN_CONFIRMED,
                0.70,
                {
                    "references": list(desc.references),
                    "referenced_by": list(desc.referenced_by),
                    "n_rows": desc.n_rows,
                },
                SOURCE,
                profile.digest(table.name),
            )
        )
    return tuple(out)
