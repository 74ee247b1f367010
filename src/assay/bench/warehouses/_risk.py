"""Two risk-style domains: insurance policies and claims (``insurance``), clinic visits
(``clinic``). Same shape as the retail ones: tables, semantic layer, traps, facts. Longer than
400 lines for the same reason: each domain reads as one specification."""

from __future__ import annotations

import numpy as np

from assay.bench.warehouses._build import Table, Trap, Warehouse, dates
from assay.bench.warehouses._retail import CLOCK, COVERAGE, day, seasonal_days

__all__ = ["clinic", "insurance"]


def insurance(rng: np.random.Generator, scale: float) -> Warehouse:
    n_holders, n_policies, n_claims = int(5000 * scale), int(8000 * scale), int(6000 * scale)
    regions = np.array(["north", "south", "east", "west"])
    holder_region = rng.choice(regions, n_holders, p=[0.3, 0.3, 0.2, 0.2])
    birth_year = rng.integers(1940, 2004, n_holders)
    birth_year[rng.random(n_holders) < 0.02] = -1
    products = np.array(["MTR", "HOM", "TRV", "LIF"])
    pol_product = rng.choice(products, n_policies, p=[0.45, 0.3, 0.15, 0.1])
    pol_start = seasonal_days(rng, n_policies, growth=0.4)
    base = {"MTR": 620.0, "HOM": 410.0, "TRV": 90.0, "LIF": 1150.0}
    premium = np.round([rng.lognormal(np.log(base[p]), 0.35) for p in pol_product], 2)
    claim_policy = rng.integers(1, n_policies + 1, n_claims)
    claim_day = np.maximum(
        pol_start[claim_policy - 1] + rng.integers(5, 365, n_claims), day(COVERAGE[0])
    )
    claim_day = np.minimum(claim_day, day(COVERAGE[1]))
    claimed = np.round(rng.lognormal(np.log(1800.0), 1.0, n_claims), 2)
    status = rng.choice(np.array(["settled", "open", "rejected"]), n_claims, p=[0.7, 0.15, 0.15])
    paid = np.where(
        status == "settled", np.round(claimed * rng.uniform(0.5, 1.0, n_claims), 2), 0.0
    )
    settled = dates(np.minimum(claim_day + rng.integers(10, 120, n_claims), day(CLOCK)))
    settled[status != "settled"] = "9999-12-31"
    tables = [
        Table(
            "holders",
            {
                "holder_id": ("INTEGER", np.arange(1, n_holders + 1)),
                "region": ("VARCHAR", holder_region),
                "birth_year": ("INTEGER", birth_year),
            },
        ),
        Table(
            "policies",
            {
                "policy_id": ("INTEGER", np.arange(1, n_policies + 1)),
                "holder_id": ("INTEGER", rng.integers(1, n_holders + 1, n_policies)),
                "product_code": ("VARCHAR", pol_product),
                "start_date": ("DATE", dates(pol_start)),
                "annual_premium": ("DECIMAL(12,2)", premium),
            },
        ),
        Table(
            "claims",
            {
                "claim_id": ("INTEGER", np.arange(1, n_claims + 1)),
                "policy_id": ("INTEGER", claim_policy),
                "claim_date": ("DATE", dates(claim_day)),
                "claimed_amount": ("DECIMAL(12,2)", claimed),
                "paid_amount": ("DECIMAL(12,2)", paid),
                "reserve_amount": ("DECIMAL(12,2)", np.round(claimed * 0.4, 2)),
                "status": ("VARCHAR", status),
                "settled_date": ("DATE", settled),
            },
        ),
    ]
    claims_from = "claims cl JOIN policies po ON cl.policy_id = po.policy_id"
    semantic = {
        "name": "insurance",
        "description": "Insurance: policy holders, policies and claims.",
        "clock": CLOCK,
        "coverage": {"start": COVERAGE[0], "end": COVERAGE[1]},
        "tables": {
            "holders": {"primary_key": "holder_id"},
            "policies": {"primary_key": "policy_id", "time_column": "start_date"},
            "claims": {"primary_key": "claim_id", "time_column": "claim_date"},
        },
        "joins": [
            {
                "left": "claims.policy_id",
                "right": "policies.policy_id",
                "relationship": "many_to_one",
            },
            {
                "left": "policies.holder_id",
                "right": "holders.holder_id",
                "relationship": "many_to_one",
            },
        ],
        "forbidden_joins": [
            {
                "left": "claims",
                "right": "holders",
                "reason": "claims reach holders only through their policy",
            },
        ],
        "retired_columns": [
            {
                "table": "claims",
                "column": "reserve_amount",
                "synonyms": ["claim reserves", "reserves", "reserve amount"],
                "replacement": "",
                "reason": "reserves moved to the actuarial system; the column is stale",
            },
        ],
        "metrics": [
            {
                "name": "premium_written",
                "label": "premium written",
                "synonyms": ["premium written", "written premium", "premiums", "premium"],
                "table": "policies",
                "expression": "SUM(policies.annual_premium)",
                "time_column": "policies.start_date",
                "required_filters": [],
            },
            {
                "name": "policy_count",
                "label": "number of policies",
                "synonyms": ["number of policies", "policies sold", "policy count"],
                "table": "policies",
                "expression": "COUNT(*)",
                "time_column": "policies.start_date",
                "required_filters": [],
            },
            {
                "name": "claim_count",
                "label": "number of claims",
                "synonyms": ["number of claims", "claim count", "claims filed"],
                "table": "claims",
                "expression": "COUNT(*)",
                "time_column": "claims.claim_date",
                "required_filters": [],
            },
            {
                "name": "claims_paid",
                "label": "claims paid",
                "synonyms": ["claims paid", "paid losses", "losses", "claim costs"],
                "table": "claims",
                "expression": "SUM(claims.paid_amount)",
                "time_column": "claims.claim_date",
                "required_filters": ["claims.status = 'settled'"],
            },
            {
                "name": "claims_incurred",
                "label": "claims incurred",
                "synonyms": ["claims incurred", "incurred losses", "losses", "claim costs"],
                "table": "claims",
                "expression": "SUM(claims.claimed_amount)",
                "time_column": "claims.claim_date",
                "required_filters": ["claims.status <> 'rejected'"],
            },
        ],
        "dimensions": [
            {
                "name": "product",
                "column": "policies.product_code",
                "synonyms": ["product", "products", "line of business"],
                "values": sorted(products.tolist()),
                "value_synonyms": {"motor": "MTR", "home": "HOM", "travel": "TRV", "life": "LIF"},
            },
        ],
        "undefined_concepts": ["performance", "engagement", "health"],
    }
    traps = [
        Trap(
            "stand_in_value",
            "holders",
            "birth_year",
            "-1 for unknown birth year",
            "SELECT count(*) FROM holders WHERE birth_year = -1",
        ),
        Trap(
            "stand_in_date",
            "claims",
            "settled_date",
            "9999-12-31 for not settled",
            "SELECT count(*) FROM claims WHERE settled_date = DATE '9999-12-31'",
        ),
        Trap(
            "code_without_name",
            "policies",
            "product_code",
            "product codes MTR, HOM, TRV, LIF have no names in the warehouse",
            "SELECT count(DISTINCT product_code) FROM policies",
        ),
        Trap(
            "undeclared_foreign_key",
            "claims",
            "policy_id",
            "claims.policy_id references policies but no key is declared",
            "SELECT count(*) FROM claims c JOIN policies p ON c.policy_id = p.policy_id",
        ),
        Trap(
            "deprecated_column",
            "claims",
            "reserve_amount",
            "retired, no replacement",
            "SELECT count(*) FROM claims WHERE reserve_amount IS NOT NULL",
        ),
        Trap(
            "two_meanings",
            "claims",
            "paid_amount",
            "losses are paid or incurred",
            "SELECT count(*) FROM claims WHERE paid_amount <> claimed_amount",
        ),
    ]
    facts = {
        "metrics": {
            "premium_written": {
                "select": "SUM(po.annual_premium)",
                "from": "policies po",
                "time": "po.start_date",
                "where": [],
                "label": "premium written",
                "dims": ["product"],
            },
            "policy_count": {
                "select": "COUNT(*)",
                "from": "policies po",
                "time": "po.start_date",
                "where": [],
                "label": "number of policies",
                "dims": ["product"],
            },
            "claim_count": {
                "select": "COUNT(*)",
                "from": claims_from,
                "time": "cl.claim_date",
                "where": [],
                "label": "number of claims",
                "dims": ["product"],
            },
            "claims_paid": {
                "select": "SUM(cl.paid_amount)",
                "from": claims_from,
                "time": "cl.claim_date",
                "where": ["cl.status = 'settled'"],
                "label": "claims paid",
                "dims": ["product"],
            },
            "claims_incurred": {
                "select": "SUM(cl.claimed_amount)",
                "from": claims_from,
                "time": "cl.claim_date",
                "where": ["cl.status <> 'rejected'"],
                "label": "claims incurred",
                "dims": ["product"],
            },
        },
        "dimensions": {
            "product": {
                "column": "po.product_code",
                "label": "product",
                "join": {"policies po": "", claims_from: ""},
                "values": {"MTR": "motor", "HOM": "home"},
            },
        },
        "standard_metrics": ["premium_written", "policy_count", "claim_count"],
        "ambiguous": [
            {
                "word": "losses",
                "readings": ["claims_paid", "claims_incurred"],
                "tokens": {"claims_paid": ["paid"], "claims_incurred": ["incurred"]},
            },
            {
                "word": "claim costs",
                "readings": ["claims_paid", "claims_incurred"],
                "tokens": {"claims_paid": ["paid"], "claims_incurred": ["incurred"]},
            },
        ],
        "absent_values": {"product": ["pet insurance", "crypto"]},
        "undefined": ["loss ratio", "combined ratio", "profit", "customer satisfaction"],
        "drift": [
            {"ask": "claim reserves", "column": "claims.reserve_amount", "survives": False},
        ],
        "write_targets": ["claims", "policies", "holders"],
    }
    return Warehouse("insurance", tables, semantic, traps, facts)


def clinic(rng: np.random.Generator, scale: float) -> Warehouse:
    n_patients, n_visits = int(6000 * scale), int(30000 * scale)
    cities = ["Aberdeen", "Bristol", "Cardiff", "Derby", "Exeter", "Leeds"]
    clinic_city = [cities[i % len(cities)] for i in range(12)]
    sex = rng.choice(np.array(["F", "M"]), n_patients)
    birth_year = rng.integers(1930, 2023, n_patients)
    depts = np.array(["CAR", "DER", "PED", "ORT", "GEN"])
    visit_patient = rng.integers(1, int(n_patients * 0.8) + 1, n_visits)  # some never visit
    visit_day = seasonal_days(rng, n_visits, growth=0.3)
    dept = rng.choice(depts, n_visits, p=[0.15, 0.1, 0.15, 0.15, 0.45])
    duration = rng.integers(10, 60, n_visits)
    duration[rng.random(n_visits) < 0.02] = -1
    cost = np.round(rng.lognormal(np.log(120.0), 0.5, n_visits), 2)
    registered = seasonal_days(rng, n_patients, "2020-01-01", COVERAGE[1], growth=0.2)
    tables = [
        Table(
            "clinics",
            {
                "clinic_id": ("INTEGER", np.arange(1, 13)),
                "name": ("VARCHAR", [f"Clinic {c} {i}" for i, c in enumerate(clinic_city, 1)]),
                "city": ("VARCHAR", clinic_city),
            },
        ),
        Table(
            "patients",
            {
                "patient_id": ("INTEGER", np.arange(1, n_patients + 1)),
                "sex": ("VARCHAR", sex),
                "birth_year": ("INTEGER", birth_year),
                "registered_at": ("DATE", dates(registered)),
            },
        ),
        Table(
            "visits",
            {
                "visit_id": ("INTEGER", np.arange(1, n_visits + 1)),
                "patient_id": ("INTEGER", visit_patient),
                "clinic_id": ("INTEGER", rng.integers(1, 13, n_visits)),
                "visit_date": ("DATE", dates(visit_day)),
                "dept_code": ("VARCHAR", dept),
                "duration_min": ("INTEGER", duration),
                "cost": ("DECIMAL(10,2)", cost),
                "doctor_name": ("VARCHAR", [f"Dr {i % 40}" for i in range(n_visits)]),
            },
        ),
    ]
    visits_from = "visits v JOIN clinics k ON v.clinic_id = k.clinic_id"
    semantic = {
        "name": "clinic",
        "description": "Clinic visits: patients, clinics and visits by department.",
        "clock": CLOCK,
        "coverage": {"start": COVERAGE[0], "end": COVERAGE[1]},
        "tables": {
            "clinics": {"primary_key": "clinic_id"},
            "patients": {"primary_key": "patient_id"},
            "visits": {"primary_key": "visit_id", "time_column": "visit_date"},
        },
        "joins": [
            {
                "left": "visits.clinic_id",
                "right": "clinics.clinic_id",
                "relationship": "many_to_one",
            },
            {
                "left": "visits.patient_id",
                "right": "patients.patient_id",
                "relationship": "many_to_one",
            },
        ],
        "forbidden_joins": [
            {
                "left": "patients",
                "right": "clinics",
                "reason": "patients are not assigned to clinics; join through visits",
            },
        ],
        "retired_columns": [
            {
                "table": "visits",
                "column": "doctor_name",
                "synonyms": ["doctor", "doctors", "doctor name"],
                "replacement": "",
                "reason": "removed from analytics for privacy; no replacement",
            },
        ],
        "metrics": [
            {
                "name": "visit_count",
                "label": "number of visits",
                "synonyms": ["number of visits", "visit count", "visits", "appointments"],
                "table": "visits",
                "expression": "COUNT(*)",
                "time_column": "visits.visit_date",
                "required_filters": [],
            },
            {
                "name": "visit_cost",
                "label": "visit cost",
                "synonyms": ["visit cost", "total cost", "cost of visits"],
                "table": "visits",
                "expression": "SUM(visits.cost)",
                "time_column": "visits.visit_date",
                "required_filters": [],
            },
            {
                "name": "average_duration",
                "label": "average visit duration",
                "synonyms": ["average visit duration", "average duration", "mean visit length"],
                "table": "visits",
                "expression": "AVG(visits.duration_min)",
                "time_column": "visits.visit_date",
                "required_filters": ["visits.duration_min >= 0"],
            },
            {
                "name": "registered_patients",
                "label": "registered patients",
                "synonyms": ["registered patients", "patients", "patient count"],
                "table": "patients",
                "expression": "COUNT(*)",
                "time_column": "patients.registered_at",
                "required_filters": [],
            },
            {
                "name": "patients_seen",
                "label": "patients seen",
                "synonyms": ["patients seen", "patients treated", "patients", "patient count"],
                "table": "visits",
                "expression": "COUNT(DISTINCT visits.patient_id)",
                "time_column": "visits.visit_date",
                "required_filters": [],
            },
        ],
        "dimensions": [
            {
                "name": "department",
                "column": "visits.dept_code",
                "synonyms": ["department", "departments", "specialty"],
                "values": sorted(depts.tolist()),
                "value_synonyms": {
                    "cardiology": "CAR",
                    "dermatology": "DER",
                    "paediatrics": "PED",
                    "pediatrics": "PED",
                    "orthopaedics": "ORT",
                    "general practice": "GEN",
                },
            },
            {
                "name": "city",
                "column": "clinics.city",
                "synonyms": ["city", "cities"],
                "values": sorted(set(cities)),
            },
        ],
        "undefined_concepts": ["performance", "engagement", "health"],
    }
    traps = [
        Trap(
            "stand_in_value",
            "visits",
            "duration_min",
            "-1 for unrecorded durations",
            "SELECT count(*) FROM visits WHERE duration_min = -1",
        ),
        Trap(
            "code_without_name",
            "visits",
            "dept_code",
            "department codes have no names in the warehouse",
            "SELECT count(DISTINCT dept_code) FROM visits",
        ),
        Trap(
            "undeclared_foreign_key",
            "visits",
            "patient_id",
            "visits.patient_id references patients but no key is declared",
            "SELECT count(*) FROM visits v JOIN patients p ON v.patient_id = p.patient_id",
        ),
        Trap(
            "deprecated_column",
            "visits",
            "doctor_name",
            "retired, no replacement",
            "SELECT count(*) FROM visits WHERE doctor_name IS NOT NULL",
        ),
        Trap(
            "two_meanings",
            "visits",
            "patient_id",
            "patients are registered or seen; a fifth never visit",
            "SELECT (SELECT count(*) FROM patients) - (SELECT count(DISTINCT patient_id) "
            "FROM visits)",
        ),
    ]
    facts = {
        "metrics": {
            "visit_count": {
                "select": "COUNT(*)",
                "from": visits_from,
                "time": "v.visit_date",
                "where": [],
                "label": "number of visits",
                "dims": ["department", "city"],
            },
            "visit_cost": {
                "select": "SUM(v.cost)",
                "from": visits_from,
                "time": "v.visit_date",
                "where": [],
                "label": "visit cost",
                "dims": ["department", "city"],
            },
            "average_duration": {
                "select": "AVG(v.duration_min)",
                "from": visits_from,
                "time": "v.visit_date",
                "where": ["v.duration_min >= 0"],
                "label": "average visit duration",
                "dims": ["department", "city"],
            },
            "registered_patients": {
                "select": "COUNT(*)",
                "from": "patients pa",
                "time": "pa.registered_at",
                "where": [],
                "label": "registered patients",
                "dims": [],
            },
            "patients_seen": {
                "select": "COUNT(DISTINCT v.patient_id)",
                "from": visits_from,
                "time": "v.visit_date",
                "where": [],
                "label": "patients seen",
                "dims": ["department", "city"],
            },
        },
        "dimensions": {
            "department": {
                "column": "v.dept_code",
                "label": "department",
                "join": {visits_from: ""},
                "values": {"CAR": "cardiology", "PED": "paediatrics"},
            },
            "city": {
                "column": "k.city",
                "label": "city",
                "join": {visits_from: ""},
                "values": {"Leeds": "Leeds", "Bristol": "Bristol"},
            },
        },
        "standard_metrics": ["visit_count", "visit_cost", "average_duration"],
        "ambiguous": [
            {
                "word": "patients",
                "readings": ["registered_patients", "patients_seen"],
                "tokens": {
                    "registered_patients": ["registered"],
                    "patients_seen": ["seen", "treated", "visited"],
                },
            },
        ],
        "absent_values": {"department": ["neurosurgery"], "city": ["Gotham"]},
        "undefined": ["readmission rate", "patient satisfaction", "waiting time", "profit"],
        "drift": [
            {"ask": "by doctor", "column": "visits.doctor_name", "survives": False},
        ],
        "write_targets": ["visits", "patients", "clinics"],
    }
    return Warehouse("clinic", tables, semantic, traps, facts)
