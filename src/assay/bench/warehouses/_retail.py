"""Two retail-style domains: e-commerce orders (``shop``) and SaaS subscriptions (``saas``).

Each returns a ``Warehouse``: tables with realistic distributions (log-normal prices, growth
and seasonality in dates, skewed categories), its semantic layer, the traps planted in it, and
the facts the task generator reads (ground-truth SQL fragments per metric and dimension).
Longer than 400 lines: each domain is one specification that should read top to bottom.
"""

from __future__ import annotations

import numpy as np

from assay.bench.warehouses._build import Table, Trap, Warehouse, dates

__all__ = ["CLOCK", "COVERAGE", "day", "saas", "seasonal_days", "shop"]

COVERAGE = ("2022-01-01", "2024-11-15")
CLOCK = "2024-11-15"


def day(text: str) -> int:
    return int((np.datetime64(text) - np.datetime64("1970-01-01")).astype(int))


def seasonal_days(
    rng: np.random.Generator,
    n: int,
    start: str = COVERAGE[0],
    end: str = COVERAGE[1],
    growth: float = 0.6,
) -> np.ndarray:
    """Days in [start, end] with yearly growth and a November-December peak."""
    lo, hi = day(start), day(end)
    span = np.arange(lo, hi + 1)
    t = (span - lo) / max(hi - lo, 1)
    month = (np.datetime64("1970-01-01") + span.astype("timedelta64[D]")).astype(
        "datetime64[M]"
    ).astype(int) % 12
    weight = (1 + growth * t) * np.where(month >= 10, 1.6, 1.0)
    return np.sort(rng.choice(span, size=n, p=weight / weight.sum()))


def _money(rng: np.random.Generator, n: int, mean: float, sigma: float = 0.6) -> np.ndarray:
    return np.round(rng.lognormal(np.log(mean), sigma, n), 2)


def shop(rng: np.random.Generator, scale: float) -> Warehouse:
    n_customers, n_products, n_orders = int(4000 * scale), 200, int(20000 * scale)
    countries = np.array(["DE", "FR", "US", "GB", "JP", "BR"])
    cust_country = rng.choice(countries, n_customers, p=[0.25, 0.15, 0.3, 0.15, 0.1, 0.05])
    registered = np.sort(rng.integers(day("2021-01-01"), day(CLOCK) + 1, n_customers))
    birth_year = rng.integers(1950, 2005, n_customers)
    birth_year[rng.random(n_customers) < 0.03] = -1  # stand-in for unknown
    categories = np.array(["toys", "books", "garden", "kitchen", "sports"])
    prod_cat = rng.choice(categories, n_products, p=[0.2, 0.3, 0.15, 0.2, 0.15])
    list_price = _money(rng, n_products, 25.0, 0.8)
    buyers = rng.choice(n_customers, int(n_customers * 0.7), replace=False) + 1
    order_day = seasonal_days(rng, n_orders)
    order_customer = rng.choice(buyers, n_orders)
    status = rng.choice(
        np.array(["completed", "cancelled", "returned"]), n_orders, p=[0.85, 0.08, 0.07]
    )
    channel = rng.choice(np.array(["W", "A", "S"]), n_orders, p=[0.55, 0.3, 0.15])
    shipped = order_day + rng.integers(1, 6, n_orders)
    shipped_text = dates(shipped)
    shipped_text[(status == "cancelled") | (rng.random(n_orders) < 0.02)] = "9999-12-31"
    lines_per = rng.integers(1, 5, n_orders)
    line_order = np.repeat(np.arange(1, n_orders + 1), lines_per)
    line_no = np.concatenate([np.arange(1, k + 1) for k in lines_per])
    n_lines = len(line_order)
    line_product = rng.integers(1, n_products + 1, n_lines)
    quantity = rng.integers(1, 6, n_lines)
    unit_price = np.round(list_price[line_product - 1] * rng.uniform(0.9, 1.1, n_lines), 2)
    discount = np.round(unit_price * quantity * rng.choice([0, 0, 0.05, 0.1, 0.2], n_lines), 2)
    # Signed quantities: a returned order carries a negative line for each returned item.
    returned = np.flatnonzero(status[line_order - 1] == "returned")
    ret_rows = returned[rng.random(len(returned)) < 0.8]
    line_order = np.concatenate([line_order, line_order[ret_rows]])
    line_no = np.concatenate([line_no, line_no[ret_rows] + 100])
    line_product = np.concatenate([line_product, line_product[ret_rows]])
    quantity = np.concatenate([quantity, -quantity[ret_rows]])
    unit_price = np.concatenate([unit_price, unit_price[ret_rows]])
    discount = np.concatenate([discount, -discount[ret_rows]])
    order_ids = np.arange(1, n_orders + 1)
    archive = order_ids[rng.random(n_orders) < 0.3]  # orders_2023 holds 2022 to 2024 rows
    tables = [
        Table(
            "customers",
            {
                "customer_id": ("INTEGER", np.arange(1, n_customers + 1)),
                "name": ("VARCHAR", [f"Customer {i}" for i in range(1, n_customers + 1)]),
                "country": ("VARCHAR", cust_country),
                "registered_at": ("DATE", dates(registered)),
                "birth_year": ("INTEGER", birth_year),
                "segment_legacy": ("VARCHAR", rng.choice(np.array(["A", "B", "C"]), n_customers)),
            },
        ),
        Table(
            "products",
            {
                "product_id": ("INTEGER", np.arange(1, n_products + 1)),
                "name": ("VARCHAR", [f"Product {i}" for i in range(1, n_products + 1)]),
                "category": ("VARCHAR", prod_cat),
                "list_price": ("DECIMAL(10,2)", list_price),
            },
        ),
        Table(
            "orders",
            {
                "order_id": ("INTEGER", order_ids),
                "customer_id": ("INTEGER", order_customer),
                "order_date": ("DATE", dates(order_day)),
                "status": ("VARCHAR", status),
                "channel_code": ("VARCHAR", channel),
                "shipped_date": ("DATE", shipped_text),
            },
        ),
        Table(
            "order_lines",
            {
                "order_id": ("INTEGER", line_order),
                "line_no": ("INTEGER", line_no),
                "product_id": ("INTEGER", line_product),
                "quantity": ("INTEGER", quantity),
                "unit_price": ("DECIMAL(10,2)", unit_price),
                "discount": ("DECIMAL(10,2)", discount),
            },
        ),
        Table(
            "orders_2023",
            {
                "order_id": ("INTEGER", archive),
                "customer_id": ("INTEGER", order_customer[archive - 1]),
                "order_date": ("DATE", dates(order_day[archive - 1])),
                "status": ("VARCHAR", status[archive - 1]),
            },
        ),
    ]
    gross = "SUM(ol.quantity * ol.unit_price)"
    net = "SUM(ol.quantity * ol.unit_price - ol.discount)"
    lines_from = "order_lines ol JOIN orders o ON ol.order_id = o.order_id"
    semantic = {
        "name": "shop",
        "description": "E-commerce orders: customers, products, orders and their lines.",
        "clock": CLOCK,
        "coverage": {"start": COVERAGE[0], "end": COVERAGE[1]},
        "tables": {
            "customers": {"primary_key": "customer_id"},
            "products": {"primary_key": "product_id"},
            "orders": {"primary_key": "order_id", "time_column": "order_date"},
            "order_lines": {"primary_key": ["order_id", "line_no"]},
            "orders_2023": {"primary_key": "order_id", "note": "archive snapshot; not 2023 only"},
        },
        "joins": [
            {
                "left": "order_lines.order_id",
                "right": "orders.order_id",
                "relationship": "many_to_one",
            },
            {
                "left": "orders.customer_id",
                "right": "customers.customer_id",
                "relationship": "many_to_one",
            },
            {
                "left": "order_lines.product_id",
                "right": "products.product_id",
                "relationship": "many_to_one",
            },
        ],
        "forbidden_joins": [
            {
                "left": "orders_2023",
                "right": "orders",
                "reason": "the archive repeats live orders; joining them double counts",
            },
        ],
        "retired_columns": [
            {
                "table": "customers",
                "column": "segment_legacy",
                "synonyms": ["legacy segment", "segment legacy"],
                "replacement": "",
                "reason": "the old segmentation was withdrawn and has no successor",
            },
        ],
        "metrics": [
            {
                "name": "gross_revenue",
                "label": "gross revenue",
                "synonyms": ["gross revenue", "gross sales", "revenue", "sales"],
                "table": "order_lines",
                "expression": "SUM(order_lines.quantity * order_lines.unit_price)",
                "time_column": "orders.order_date",
                "required_filters": ["orders.status <> 'cancelled'"],
            },
            {
                "name": "net_revenue",
                "label": "net revenue",
                "synonyms": ["net revenue", "net sales", "revenue", "sales"],
                "table": "order_lines",
                "expression": "SUM(order_lines.quantity * "
                "order_lines.unit_price - order_lines.discount)",
                "time_column": "orders.order_date",
                "required_filters": ["orders.status <> 'cancelled'"],
            },
            {
                "name": "order_count",
                "label": "number of orders",
                "synonyms": ["number of orders", "order count", "orders placed"],
                "table": "orders",
                "expression": "COUNT(DISTINCT orders.order_id)",
                "time_column": "orders.order_date",
                "required_filters": ["orders.status <> 'cancelled'"],
            },
            {
                "name": "units_sold",
                "label": "units sold",
                "synonyms": ["units sold", "items sold", "quantity sold"],
                "table": "order_lines",
                "expression": "SUM(order_lines.quantity)",
                "time_column": "orders.order_date",
                "required_filters": ["orders.status <> 'cancelled'"],
            },
            {
                "name": "registered_customers",
                "label": "registered customers",
                "synonyms": ["registered customers", "customers", "customer count"],
                "table": "customers",
                "expression": "COUNT(DISTINCT customers.customer_id)",
                "time_column": "customers.registered_at",
                "required_filters": [],
            },
            {
                "name": "purchasing_customers",
                "label": "purchasing customers",
                "synonyms": ["purchasing customers", "buyers", "customers", "customer count"],
                "table": "orders",
                "expression": "COUNT(DISTINCT orders.customer_id)",
                "time_column": "orders.order_date",
                "required_filters": ["orders.status <> 'cancelled'"],
            },
            {
                "name": "average_delivery_days",
                "label": "average delivery days",
                "synonyms": ["average delivery days", "average days to ship", "delivery time"],
                "table": "orders",
                "expression": "AVG(orders.shipped_date - orders.order_date)",
                "time_column": "orders.order_date",
                "required_filters": ["orders.status <> 'cancelled'"],
            },
            {
                "name": "latest_ship_date",
                "label": "latest ship date",
                "synonyms": ["latest ship date", "last ship date", "latest shipment"],
                "table": "orders",
                "expression": "MAX(orders.shipped_date)",
                "time_column": "orders.order_date",
                "required_filters": [],
            },
        ],
        "dimensions": [
            {
                "name": "country",
                "column": "customers.country",
                "synonyms": ["country", "countries", "market"],
                "values": sorted(countries.tolist()),
                "value_synonyms": {
                    "germany": "DE",
                    "france": "FR",
                    "united states": "US",
                    "usa": "US",
                    "united kingdom": "GB",
                    "uk": "GB",
                    "japan": "JP",
                    "brazil": "BR",
                },
            },
            {
                "name": "category",
                "column": "products.category",
                "synonyms": ["category", "categories", "product category"],
                "values": sorted(categories.tolist()),
            },
            {
                "name": "channel",
                "column": "orders.channel_code",
                "synonyms": ["channel", "sales channel"],
                "values": ["A", "S", "W"],
                "value_synonyms": {"web": "W", "app": "A", "store": "S"},
            },
        ],
        "undefined_concepts": ["performance", "engagement", "health"],
    }
    traps = [
        Trap(
            "stand_in_value",
            "customers",
            "birth_year",
            "-1 for an unknown birth year",
            "SELECT count(*) FROM customers WHERE birth_year = -1",
        ),
        Trap(
            "stand_in_date",
            "orders",
            "shipped_date",
            "9999-12-31 for never shipped",
            "SELECT count(*) FROM orders WHERE shipped_date = DATE '9999-12-31'",
        ),
        Trap(
            "misleading_table_name",
            "orders_2023",
            "order_date",
            "orders_2023 holds orders from 2022 to 2024",
            "SELECT count(*) FROM orders_2023 WHERE year(order_date) <> 2023",
        ),
        Trap(
            "signed_quantity",
            "order_lines",
            "quantity",
            "returned items appear as negative quantities",
            "SELECT count(*) FROM order_lines WHERE quantity < 0",
        ),
        Trap(
            "code_without_name",
            "orders",
            "channel_code",
            "channel codes W, A, S have no names in the warehouse",
            "SELECT count(DISTINCT channel_code) FROM orders",
        ),
        Trap(
            "undeclared_foreign_key",
            "orders",
            "customer_id",
            "orders.customer_id references customers but no key is declared",
            "SELECT count(*) FROM orders o JOIN customers c ON o.customer_id = c.customer_id",
        ),
        Trap(
            "deprecated_column",
            "customers",
            "segment_legacy",
            "retired in the semantic layer with no replacement",
            "SELECT count(*) FROM customers WHERE segment_legacy IS NOT NULL",
        ),
        Trap(
            "two_meanings",
            "order_lines",
            "discount",
            "revenue is gross (before discounts) or net (after)",
            "SELECT count(*) FROM order_lines WHERE discount <> 0",
        ),
        Trap(
            "two_meanings",
            "orders",
            "customer_id",
            "customers are registered or purchasing; 30% never ordered",
            "SELECT (SELECT count(*) FROM customers) - (SELECT count(DISTINCT customer_id) "
            "FROM orders)",
        ),
    ]
    facts = {
        "metrics": {
            "gross_revenue": {
                "select": gross,
                "from": lines_from,
                "time": "o.order_date",
                "where": ["o.status <> 'cancelled'"],
                "label": "gross revenue",
                "dims": ["country", "category", "channel"],
            },
            "net_revenue": {
                "select": net,
                "from": lines_from,
                "time": "o.order_date",
                "where": ["o.status <> 'cancelled'"],
                "label": "net revenue",
                "dims": ["country", "category", "channel"],
            },
            "order_count": {
                "select": "COUNT(DISTINCT o.order_id)",
                "from": "orders o",
                "time": "o.order_date",
                "where": ["o.status <> 'cancelled'"],
                "label": "number of orders",
                "dims": ["country", "channel"],
            },
            "units_sold": {
                "select": "SUM(ol.quantity)",
                "from": lines_from,
                "time": "o.order_date",
                "where": ["o.status <> 'cancelled'"],
                "label": "units sold",
                "dims": ["category", "channel"],
            },
            "registered_customers": {
                "select": "COUNT(DISTINCT c.customer_id)",
                "from": "customers c",
                "time": "c.registered_at",
                "where": [],
                "label": "registered customers",
                "dims": ["country"],
            },
            "purchasing_customers": {
                "select": "COUNT(DISTINCT o.customer_id)",
                "from": "orders o",
                "time": "o.order_date",
                "where": ["o.status <> 'cancelled'"],
                "label": "purchasing customers",
                "dims": ["channel"],
            },
        },
        "dimensions": {
            "country": {
                "column": "c.country",
                "label": "country",
                "join": {
                    "orders o": "JOIN customers c ON o.customer_id = c.customer_id",
                    lines_from: "JOIN customers c ON o.customer_id = c.customer_id",
                    "customers c": "",
                },
                "values": {"DE": "Germany", "FR": "France", "US": "the US"},
            },
            "category": {
                "column": "p.category",
                "label": "category",
                "join": {lines_from: "JOIN products p ON ol.product_id = p.product_id"},
                "values": {"books": "books", "toys": "toys"},
            },
            "channel": {
                "column": "o.channel_code",
                "label": "channel",
                "join": {"orders o": "", lines_from: ""},
                "values": {"W": "the web shop", "A": "the app"},
            },
        },
        "standard_metrics": ["gross_revenue", "net_revenue", "order_count", "units_sold"],
        "ambiguous": [
            {
                "word": "revenue",
                "readings": ["gross_revenue", "net_revenue"],
                "tokens": {"gross_revenue": ["gross"], "net_revenue": ["net"]},
            },
            {
                "word": "customers",
                "readings": ["registered_customers", "purchasing_customers"],
                "tokens": {
                    "registered_customers": ["registered"],
                    "purchasing_customers": ["purchasing", "bought", "ordered"],
                },
            },
        ],
        "absent_values": {"country": ["Atlantis", "Narnia"], "category": ["spaceships"]},
        "undefined": [
            "profit margin",
            "customer satisfaction score",
            "customer lifetime value",
            "inventory on hand",
        ],
        "drift": [
            {"ask": "by legacy segment", "column": "customers.segment_legacy", "survives": False},
        ],
        "write_targets": ["orders", "customers", "order_lines"],
    }
    return Warehouse("shop", tables, semantic, traps, facts)


def saas(rng: np.random.Generator, scale: float) -> Warehouse:
    n_accounts, n_invoices = int(3000 * scale), int(36000 * scale)
    plans = [
        ("Starter", "basic", 29.0),
        ("Team", "pro", 99.0),
        ("Business", "pro", 249.0),
        ("Scale", "enterprise", 799.0),
        ("Enterprise", "enterprise", 2499.0),
        ("Free", "basic", 0.0),
    ]
    regions = np.array(["EMEA", "AMER", "APAC"])
    acct_region = rng.choice(regions, n_accounts, p=[0.4, 0.45, 0.15])
    signup = seasonal_days(rng, n_accounts, "2021-01-01", COVERAGE[1], growth=0.3)
    segment = rng.choice(np.array(["smb", "mid", "enterprise"]), n_accounts, p=[0.6, 0.3, 0.1])
    acct_plan = rng.choice(np.arange(1, 7), n_accounts, p=[0.3, 0.3, 0.15, 0.08, 0.02, 0.15])
    inv_account = rng.integers(1, n_accounts + 1, n_invoices)
    inv_day = seasonal_days(rng, n_invoices, growth=0.8)
    price = np.array([p[2] for p in plans])[acct_plan[inv_account - 1] - 1]
    seats = rng.integers(1, 40, n_invoices)
    gross_amount = np.round(price * seats * rng.uniform(0.95, 1.05, n_invoices) + 10, 2)
    discount_amount = np.round(gross_amount * rng.choice([0, 0, 0.1, 0.15, 0.25], n_invoices), 2)
    seats_recorded = seats.copy()
    seats_recorded[rng.random(n_invoices) < 0.01] = -1  # stand-in for unknown seats
    inv_status = rng.choice(np.array(["paid", "open", "void"]), n_invoices, p=[0.9, 0.07, 0.03])
    churned = rng.random(n_accounts) < 0.25
    churn_day = signup + rng.integers(60, 900, n_accounts)
    churn_text = dates(np.minimum(churn_day, day(COVERAGE[1])))
    churn_text[~churned] = "9999-12-31"  # stand-in for still active
    tables = [
        Table(
            "plans",
            {
                "plan_id": ("INTEGER", np.arange(1, 7)),
                "name": ("VARCHAR", [p[0] for p in plans]),
                "tier": ("VARCHAR", [p[1] for p in plans]),
                "monthly_price": ("DECIMAL(10,2)", [p[2] for p in plans]),
            },
        ),
        Table(
            "accounts",
            {
                "account_id": ("INTEGER", np.arange(1, n_accounts + 1)),
                "name": ("VARCHAR", [f"Account {i}" for i in range(1, n_accounts + 1)]),
                "sales_region": ("VARCHAR", acct_region),
                "segment": ("VARCHAR", segment),
                "plan_id": ("INTEGER", acct_plan),
                "signup_date": ("DATE", dates(signup)),
                "churn_date": ("DATE", churn_text),
            },
        ),
        Table(
            "invoices",
            {
                "invoice_id": ("INTEGER", np.arange(1, n_invoices + 1)),
                "account_id": ("INTEGER", inv_account),
                "invoice_date": ("DATE", dates(inv_day)),
                "seats": ("INTEGER", seats_recorded),
                "gross_amount": ("DECIMAL(12,2)", gross_amount),
                "discount_amount": ("DECIMAL(12,2)", discount_amount),
                "net_amount": ("DECIMAL(12,2)", np.round(gross_amount - discount_amount, 2)),
                "status": ("VARCHAR", inv_status),
            },
        ),
    ]
    inv_from = "invoices i JOIN accounts a ON i.account_id = a.account_id"
    semantic = {
        "name": "saas",
        "description": "SaaS subscriptions: plans, accounts and monthly invoices.",
        "clock": CLOCK,
        "coverage": {"start": COVERAGE[0], "end": COVERAGE[1]},
        "fiscal_year_start_month": 4,
        "tables": {
            "plans": {"primary_key": "plan_id"},
            "accounts": {"primary_key": "account_id"},
            "invoices": {"primary_key": "invoice_id", "time_column": "invoice_date"},
        },
        "joins": [
            {
                "left": "invoices.account_id",
                "right": "accounts.account_id",
                "relationship": "many_to_one",
            },
            {"left": "accounts.plan_id", "right": "plans.plan_id", "relationship": "many_to_one"},
        ],
        "forbidden_joins": [
            {
                "left": "invoices",
                "right": "plans",
                "reason": "an invoice's plan is the account's plan at billing; join via accounts",
            },
        ],
        "retired_columns": [
            {
                "table": "accounts",
                "column": "region",
                "synonyms": [],
                "replacement": "accounts.sales_region",
                "reason": "renamed to sales_region in the 2024 migration",
            },
        ],
        "metrics": [
            {
                "name": "gross_revenue",
                "label": "gross revenue",
                "synonyms": ["gross revenue", "gross billings", "revenue", "billings"],
                "table": "invoices",
                "expression": "SUM(invoices.gross_amount)",
                "time_column": "invoices.invoice_date",
                "required_filters": ["invoices.status <> 'void'"],
            },
            {
                "name": "net_revenue",
                "label": "net revenue",
                "synonyms": ["net revenue", "net billings", "revenue", "billings"],
                "table": "invoices",
                "expression": "SUM(invoices.net_amount)",
                "time_column": "invoices.invoice_date",
                "required_filters": ["invoices.status <> 'void'"],
            },
            {
                "name": "invoice_count",
                "label": "number of invoices",
                "synonyms": ["number of invoices", "invoice count", "invoices issued"],
                "table": "invoices",
                "expression": "COUNT(*)",
                "time_column": "invoices.invoice_date",
                "required_filters": ["invoices.status <> 'void'"],
            },
            {
                "name": "new_accounts",
                "label": "new accounts",
                "synonyms": ["new accounts", "signups", "new signups"],
                "table": "accounts",
                "expression": "COUNT(*)",
                "time_column": "accounts.signup_date",
                "required_filters": [],
            },
        ],
        "dimensions": [
            {
                "name": "region",
                "column": "accounts.sales_region",
                "synonyms": ["sales region", "region", "regions"],
                "values": sorted(regions.tolist()),
                "value_synonyms": {"europe": "EMEA", "americas": "AMER", "asia": "APAC"},
            },
            {
                "name": "segment",
                "column": "accounts.segment",
                "synonyms": ["segment", "segments", "customer segment"],
                "values": ["enterprise", "mid", "smb"],
            },
        ],
        "undefined_concepts": ["performance", "engagement", "health"],
    }
    traps = [
        Trap(
            "stand_in_value",
            "invoices",
            "seats",
            "-1 for unknown seats",
            "SELECT count(*) FROM invoices WHERE seats = -1",
        ),
        Trap(
            "stand_in_date",
            "accounts",
            "churn_date",
            "9999-12-31 for still active",
            "SELECT count(*) FROM accounts WHERE churn_date = DATE '9999-12-31'",
        ),
        Trap(
            "renamed_column",
            "accounts",
            "sales_region",
            "region was renamed to sales_region",
            "SELECT count(*) FROM information_schema.columns WHERE table_name = 'accounts' "
            "AND column_name = 'sales_region'",
        ),
        Trap(
            "code_without_name",
            "accounts",
            "sales_region",
            "region codes EMEA, AMER, APAC have no lookup table",
            "SELECT count(DISTINCT sales_region) FROM accounts",
        ),
        Trap(
            "undeclared_foreign_key",
            "invoices",
            "account_id",
            "invoices.account_id references accounts but no key is declared",
            "SELECT count(*) FROM invoices i JOIN accounts a ON i.account_id = a.account_id",
        ),
        Trap(
            "two_meanings",
            "invoices",
            "discount_amount",
            "revenue is gross or net of discount",
            "SELECT count(*) FROM invoices WHERE discount_amount <> 0",
        ),
    ]
    facts = {
        "metrics": {
            "gross_revenue": {
                "select": "SUM(i.gross_amount)",
                "from": inv_from,
                "time": "i.invoice_date",
                "where": ["i.status <> 'void'"],
                "label": "gross revenue",
                "dims": ["region", "segment"],
            },
            "net_revenue": {
                "select": "SUM(i.net_amount)",
                "from": inv_from,
                "time": "i.invoice_date",
                "where": ["i.status <> 'void'"],
                "label": "net revenue",
                "dims": ["region", "segment"],
            },
            "invoice_count": {
                "select": "COUNT(*)",
                "from": inv_from,
                "time": "i.invoice_date",
                "where": ["i.status <> 'void'"],
                "label": "number of invoices",
                "dims": ["region", "segment"],
            },
            "new_accounts": {
                "select": "COUNT(*)",
                "from": "accounts a",
                "time": "a.signup_date",
                "where": [],
                "label": "new accounts",
                "dims": ["region", "segment"],
            },
        },
        "dimensions": {
            "region": {
                "column": "a.sales_region",
                "label": "sales region",
                "join": {inv_from: "", "accounts a": ""},
                "values": {"EMEA": "EMEA", "AMER": "the Americas"},
            },
            "segment": {
                "column": "a.segment",
                "label": "segment",
                "join": {inv_from: "", "accounts a": ""},
                "values": {"enterprise": "enterprise", "smb": "smb"},
            },
        },
        "standard_metrics": ["gross_revenue", "net_revenue", "invoice_count", "new_accounts"],
        "ambiguous": [
            {
                "word": "revenue",
                "readings": ["gross_revenue", "net_revenue"],
                "tokens": {"gross_revenue": ["gross"], "net_revenue": ["net"]},
            },
            {
                "word": "billings",
                "readings": ["gross_revenue", "net_revenue"],
                "tokens": {"gross_revenue": ["gross"], "net_revenue": ["net"]},
            },
        ],
        "absent_values": {"region": ["Antarctica"], "segment": ["government"]},
        "undefined": ["churn rate", "net revenue retention", "customer acquisition cost", "profit"],
        "drift": [
            {
                "ask": "by region",
                "column": "accounts.region",
                "survives": True,
                "replacement": "region",
            },
        ],
        "write_targets": ["invoices", "accounts", "plans"],
    }
    return Warehouse("saas", tables, semantic, traps, facts)
