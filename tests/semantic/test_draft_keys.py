"""Drafted joins need names that agree, not containment alone (outside tryout 18, items 81, 85,
86: `semantic init` on TPC-DS joined item.i_item_id to customer_address.ca_address_id, "1.000
of values found", both 16-letter business ids from one generator, and item.i_manufact_id to
customer.c_customer_sk, small integers that happen to be contained; "How many items are in
GA?" then answered 9).

A hand-made schema with TPC-DS's column names and the same coincidences: item ids drawn from
the address ids' generator, manufacturer ids spread over the customer keys' range. The true
keys (ss_item_sk, ss_customer_sk, c_current_addr_sk) must be proposed, below the commit tier;
the coincidences must not, and must be named in a comment.
"""

from __future__ import annotations

import duckdb
import pytest
import yaml
from click.testing import CliRunner

from assay.catalog import AUTO_COMMIT_TIER, Tier, proposals, reconstruct
from assay.cli import main
from assay.connectors import connect


def _code(n: int) -> str:
    """TPC-DS's business-id shape: 16 letters A-P, the number in base 16, low digit first."""
    digits = []
    for _ in range(8):
        digits.append(chr(ord("A") + n % 16))
        n //= 16
    return "AAAAAAAA" + "".join(digits)


CUSTOMER_ADDRESS = "ca_address_sk INTEGER, ca_address_id VARCHAR, ca_state VARCHAR"
CUSTOMER = "c_customer_sk INTEGER, c_current_addr_sk INTEGER, c_birth_year INTEGER"
ITEM = "i_item_sk INTEGER, i_item_id VARCHAR, i_manufact_id INTEGER, i_current_price DECIMAL(7,2)"
STORE_SALES = (
    "ss_item_sk INTEGER, ss_customer_sk INTEGER, ss_quantity INTEGER, ss_net_profit DECIMAL(7,2)"
)


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    folder = tmp_path_factory.mktemp("keys")
    db = folder / "star.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute(f"CREATE TABLE customer_address ({CUSTOMER_ADDRESS})")
        con.executemany(
            "INSERT INTO customer_address VALUES (?, ?, ?)",
            [(i, _code(i), ("GA", "TX", "CA", "NY")[i % 4]) for i in range(1, 201)],
        )
        con.execute(f"CREATE TABLE customer ({CUSTOMER})")
        con.executemany(
            "INSERT INTO customer VALUES (?, ?, ?)",
            [(i, (i * 37) % 200 + 1, 1940 + i % 50) for i in range(1, 101)],
        )
        # SCD2 items: each business id twice; manufacturer ids spread over 1..100
        con.execute(f"CREATE TABLE item ({ITEM})")
        con.executemany(
            "INSERT INTO item VALUES (?, ?, ?, ?)",
            [(i, _code((i + 1) // 2), (i * 53) % 100 + 1, 1 + (i * 7) % 90) for i in range(1, 61)],
        )
        con.execute(f"CREATE TABLE store_sales ({STORE_SALES})")
        con.executemany(
            "INSERT INTO store_sales VALUES (?, ?, ?, ?)",
            [(i % 60 + 1, (i * 13) % 100 + 1, 1 + i % 9, (i % 17) - 5.5) for i in range(400)],
        )
    out = folder / "star.yaml"
    result = CliRunner().invoke(main, ["semantic", "init", "--db", str(db), "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    return {"text": text, "layer": yaml.safe_load(text), "db": db}


def _joins(drafted: dict[str, object]) -> dict[str, dict[str, object]]:
    layer = drafted["layer"]
    assert isinstance(layer, dict)
    return {str(j["left"]): j for j in layer.get("joins") or []}


def test_coincidental_containment_is_not_a_join(drafted: dict[str, object]) -> None:
    joins = _joins(drafted)
    assert "item.i_item_id" not in joins, joins["item.i_item_id"]
    assert "item.i_manufact_id" not in joins, joins["item.i_manufact_id"]
    text = str(drafted["text"])
    # named, so a reader sees what was left out and why
    assert "item.i_item_id -> customer_address.ca_address_id not proposed" in text
    assert "item.i_manufact_id -> customer.c_customer_sk not proposed" in text


def test_keys_whose_names_agree_are_joins_below_the_commit_tier(
    drafted: dict[str, object],
) -> None:
    joins = _joins(drafted)
    assert {k: str(v["right"]) for k, v in joins.items()} == {
        "customer.c_current_addr_sk": "customer_address.ca_address_sk",
        "store_sales.ss_customer_sk": "customer.c_customer_sk",
        "store_sales.ss_item_sk": "item.i_item_sk",
    }
    for join in joins.values():
        assert Tier[str(join["tier"])] < AUTO_COMMIT_TIER


def test_manufacturer_ids_stay_identifiers_not_measures(drafted: dict[str, object]) -> None:
    layer = drafted["layer"]
    assert isinstance(layer, dict)
    expressions = " ".join(str(m["expression"]) for m in layer.get("metrics") or [])
    assert "i_manufact_id" not in expressions


def test_containment_alone_is_the_lowest_tier_in_the_catalog(drafted: dict[str, object]) -> None:
    """The fact store's tiers (Rosetta 4.1): a key whose names agree is PATTERN_CONFIRMED, one
    proved by containment alone INTERPRETER_ONLY; neither commits without review."""
    with connect(str(drafted["db"])) as connector:
        found = reconstruct(connector, connector.catalog())
    tiers = {p.subject: p.tier for p in proposals(found) if p.predicate == "references"}
    assert tiers["item.i_item_id"] == Tier.INTERPRETER_ONLY
    assert tiers["item.i_manufact_id"] == Tier.INTERPRETER_ONLY
    assert tiers["store_sales.ss_item_sk"] == Tier.PATTERN_CONFIRMED
    assert max(tiers.values()) < AUTO_COMMIT_TIER
