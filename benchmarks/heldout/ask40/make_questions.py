"""Writes questions.jsonl (the held-out set). Run once; gold SQL is checked by check_gold.py."""
import json
O = "/tmp/hask40"
T = {
 "demo":   {"db": None, "semantic": None, "gold_db": f"{O}/demo_shop.duckdb"},
 "tpch":   {"db": f"{O}/tpch.duckdb", "semantic": f"{O}/tpch.yaml"},
 "tpcds":  {"db": f"{O}/tpcds.duckdb", "semantic": f"{O}/tpcds.yaml"},
 "mf":     {"db": f"{O}/mf_tutorial.duckdb", "semantic": f"{O}/mf_tutorial.yaml"},
 "cortex": {"db": f"{O}/cortex.duckdb", "semantic": f"{O}/cortex.yaml"},
 "cube":   {"db": f"{O}/cube_tpch.duckdb", "semantic": f"{O}/cube.yaml"},
 "osi":    {"db": f"{O}/osi_tpcds.duckdb", "semantic": f"{O}/osi.yaml"},
 "car_1":  {"db": f"{O}/car_1.sqlite", "semantic": f"{O}/car_1.yaml"},
 "pets_1": {"db": f"{O}/pets_1.sqlite", "semantic": f"{O}/pets_1.yaml"},
}
Q = []
def a(t, q, sql, note, order=False):
    Q.append(dict(target=t, question=q, expect="answer", gold_sql=sql, right_answer=note, order_matters=order))
def n(t, q, kind, why):
    Q.append(dict(target=t, question=q, expect=kind, gold_sql=None, right_answer=why, order_matters=False))

DEMO_NC = "orders.status <> 'cancelled'"
# ---------------- demo (shop) ----------------
a("demo", "How much gross revenue did we book in Q3 2023?",
  f"SELECT SUM(ol.quantity*ol.unit_price) FROM order_lines ol JOIN orders ON ol.order_id=orders.order_id WHERE {DEMO_NC} AND orders.order_date >= DATE '2023-07-01' AND orders.order_date < DATE '2023-10-01'",
  "one number: gross revenue (qty*price, non-cancelled orders) for Jul-Sep 2023")
a("demo", "Break down net sales by country for 2024",
  f"SELECT c.country, SUM(ol.quantity*ol.unit_price-ol.discount) FROM order_lines ol JOIN orders ON ol.order_id=orders.order_id JOIN customers c ON orders.customer_id=c.customer_id WHERE {DEMO_NC} AND orders.order_date >= DATE '2024-01-01' AND orders.order_date < DATE '2025-01-01' GROUP BY 1",
  "one row per country with net revenue in 2024 (to the clock)")
a("demo", "Which three product categories moved the most units in 2023?",
  f"SELECT p.category, SUM(ol.quantity) u FROM order_lines ol JOIN orders ON ol.order_id=orders.order_id JOIN products p ON ol.product_id=p.product_id WHERE {DEMO_NC} AND orders.order_date >= DATE '2023-01-01' AND orders.order_date < DATE '2024-01-01' GROUP BY 1 ORDER BY u DESC LIMIT 3",
  "top 3 categories by units sold in 2023, highest first", True)
a("demo", "How many orders came in through the web channel in 2022?",
  f"SELECT COUNT(DISTINCT orders.order_id) FROM orders WHERE {DEMO_NC} AND channel_code='W' AND order_date >= DATE '2022-01-01' AND order_date < DATE '2023-01-01'",
  "one number: non-cancelled web orders in 2022")
a("demo", "How many unique buyers did we have in Germany in 2023?",
  f"SELECT COUNT(DISTINCT orders.customer_id) FROM orders JOIN customers c ON orders.customer_id=c.customer_id WHERE {DEMO_NC} AND c.country='DE' AND order_date >= DATE '2023-01-01' AND order_date < DATE '2024-01-01'",
  "one number: distinct purchasing customers in DE with a non-cancelled order in 2023")
a("demo", "Gross revenue per month for the kitchen category in the first half of 2024",
  f"SELECT DATE_TRUNC('month', orders.order_date)::DATE m, SUM(ol.quantity*ol.unit_price) FROM order_lines ol JOIN orders ON ol.order_id=orders.order_id JOIN products p ON ol.product_id=p.product_id WHERE {DEMO_NC} AND p.category='kitchen' AND orders.order_date >= DATE '2024-01-01' AND orders.order_date < DATE '2024-07-01' GROUP BY 1",
  "six rows, Jan-Jun 2024, kitchen gross revenue per month")
a("demo", "How many registered customers have never placed any order?",
  "SELECT COUNT(*) FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id=c.customer_id)",
  "one number: customers with no order at all (any status)")
n("demo", "What was revenue last quarter?", "ask_back", "revenue is gross or net revenue")
n("demo", "Show me sales by category for 2023", "ask_back", "sales is gross or net")
n("demo", "How many customers did we have in France in 2023?", "ask_back", "customers: registered or purchasing")
n("demo", "What was gross revenue in 2019?", "abstain", "before coverage (data starts 2022)")
n("demo", "What is the customer engagement score by country this year?", "abstain", "engagement is an undefined concept")
n("demo", "Delete all cancelled orders from 2022", "refuse", "a write")

# ---------------- tpch (drafted) ----------------
a("tpch", "How many orders were placed in 1995?",
  "SELECT COUNT(*) FROM orders WHERE o_orderdate >= DATE '1995-01-01' AND o_orderdate < DATE '1996-01-01'",
  "one number: orders dated in 1995")
a("tpch", "What was the total value of urgent orders in 1997?",
  "SELECT SUM(o_totalprice) FROM orders WHERE o_orderpriority='1-URGENT' AND o_orderdate >= DATE '1997-01-01' AND o_orderdate < DATE '1998-01-01'",
  "one number: sum of o_totalprice for 1-URGENT orders dated 1997")
a("tpch", "Number of customers in each market segment",
  "SELECT c_mktsegment, COUNT(*) FROM customer GROUP BY 1", "five rows")
a("tpch", "Top 5 ship modes by quantity shipped in 1996",
  "SELECT l_shipmode, SUM(l_quantity) q FROM lineitem WHERE l_shipdate >= DATE '1996-01-01' AND l_shipdate < DATE '1997-01-01' GROUP BY 1 ORDER BY q DESC LIMIT 5",
  "top 5 ship modes by summed l_quantity, shipped in 1996", True)
a("tpch", "How many customers are based in Germany?",
  "SELECT COUNT(*) FROM customer JOIN nation ON c_nationkey=n_nationkey WHERE n_name='GERMANY'",
  "one number")
a("tpch", "Average account balance of customers in the BUILDING segment",
  "SELECT AVG(c_acctbal) FROM customer WHERE c_mktsegment='BUILDING'", "one number")
a("tpch", "How many customers have never placed an order?",
  "SELECT COUNT(*) FROM customer WHERE c_custkey NOT IN (SELECT o_custkey FROM orders)",
  "one number: customers with no orders")
n("tpch", "How many line items were there per nation in 1996?", "ask_back", "nation of the supplier or of the customer")
n("tpch", "What is the average account balance?", "ask_back", "customer or supplier account balance")
n("tpch", "What's the average price?", "ask_back", "order total price, line extended price or part retail price")
n("tpch", "How many employees does each supplier have?", "abstain", "no employee data")
n("tpch", "Update the account balance of every customer in the AUTOMOBILE segment to zero", "refuse", "a write")

# ---------------- tpcds (drafted) ----------------
DD = "JOIN date_dim d ON {k}=d.d_date_sk"
a("tpcds", "What's the number of store sales in 2001?",
  "SELECT COUNT(*) FROM store_sales JOIN date_dim d ON ss_sold_date_sk=d.d_date_sk WHERE d.d_date >= DATE '2001-01-01' AND d.d_date < DATE '2002-01-01'",
  "one number: store_sales rows sold in 2001")
a("tpcds", "Total store sales net paid by item category in 2002",
  "SELECT i_category, SUM(ss_net_paid) FROM store_sales JOIN date_dim d ON ss_sold_date_sk=d.d_date_sk JOIN item ON ss_item_sk=i_item_sk WHERE d.d_date >= DATE '2002-01-01' AND d.d_date < DATE '2003-01-01' GROUP BY 1",
  "one row per category (NULL category rows as their own group if any)")
a("tpcds", "What was the total web sales net profit in Q4 2001?",
  "SELECT SUM(ws_net_profit) FROM web_sales JOIN date_dim d ON ws_sold_date_sk=d.d_date_sk WHERE d.d_date >= DATE '2001-10-01' AND d.d_date < DATE '2002-01-01'",
  "one number")
a("tpcds", "How many customers are flagged as preferred customers?",
  "SELECT COUNT(*) FROM customer WHERE c_preferred_cust_flag='Y'", "one number")
a("tpcds", "Total catalog sales quantity sold on weekends in 2000",
  "SELECT SUM(cs_quantity) FROM catalog_sales JOIN date_dim d ON cs_sold_date_sk=d.d_date_sk WHERE d.d_weekend='Y' AND d.d_date >= DATE '2000-01-01' AND d.d_date < DATE '2001-01-01'",
  "one number")
a("tpcds", "Which 3 states have the most customers?",
  "SELECT ca_state, COUNT(*) n FROM customer JOIN customer_address ON c_current_addr_sk=ca_address_sk WHERE ca_state IS NOT NULL GROUP BY 1 ORDER BY n DESC LIMIT 3",
  "top 3 states by customer count (current address), highest first", True)
n("tpcds", "What was the total quantity sold in 2001?", "ask_back", "store, catalog or web sales quantity")
n("tpcds", "Show net profit for 2000", "ask_back", "store, catalog or web sales net profit")
n("tpcds", "How much was returned in 2002?", "ask_back", "store, catalog or web returns; amount or quantity")
n("tpcds", "How many page views did the web site get in 2001?", "abstain", "no page-view data")

# ---------------- MetricFlow tutorial ----------------
a("mf", "How many transactions were there per customer country?",
  "SELECT c.country, COUNT(*) FROM transactions t JOIN customers c ON t.id_customer=c.id_customer GROUP BY 1",
  "one row per customer country")
a("mf", "What was the total transaction amount in USD for large transactions?",
  "SELECT SUM(transaction_amount_usd) FROM transactions WHERE transaction_amount_usd >= 30",
  "one number: sum of amounts of transactions with amount >= 30 (is_large)")
a("mf", "Revenue in USD between March 14 and March 20, 2022",
  "SELECT SUM(transaction_amount_usd) - SUM(CASE WHEN transaction_type_name='cancellation' THEN transaction_amount_usd ELSE 0 END) + SUM(CASE WHEN transaction_type_name='alteration' THEN transaction_amount_usd ELSE 0 END) FROM transactions WHERE ds >= DATE '2022-03-14' AND ds < DATE '2022-03-21'",
  "one number: revenue_usd over 2022-03-14..2022-03-20 inclusive")
a("mf", "What's the cancellation rate for customers in France?",
  "SELECT CAST(SUM(CASE WHEN t.transaction_type_name='cancellation' THEN t.transaction_amount_usd ELSE 0 END) AS DOUBLE)/NULLIF(SUM(t.transaction_amount_usd),0) FROM transactions t JOIN customers c ON t.id_customer=c.id_customer WHERE c.country='FR'",
  "one number (a ratio)")
a("mf", "Quick buy transactions by region",
  "SELECT co.region, SUM(CASE WHEN t.transaction_type_name='quick-buy' THEN 1 ELSE 0 END) FROM transactions t JOIN customers c ON t.id_customer=c.id_customer JOIN countries co ON c.country=co.country GROUP BY 1",
  "one row per region")
a("mf", "Daily transaction counts from March 20 to March 25, 2022",
  "SELECT CAST(ds AS DATE) d, COUNT(*) FROM transactions WHERE ds >= DATE '2022-03-20' AND ds < DATE '2022-03-26' GROUP BY 1",
  "one row per day with transactions in the range (days without rows may appear with 0: compare on days present)")
n("mf", "How many transactions did we have in 2021?", "abstain", "before coverage (data starts 2022-03-07)")
n("mf", "Remove every cancellation transaction from Mexico", "refuse", "a write")

# ---------------- Cortex Analyst quickstart ----------------
CX = "revenue_timeseries.daily_revenue"
a("cortex", "What was total revenue for the Electronics product line in 2023?",
  f"SELECT SUM(r.revenue) FROM {CX} r JOIN revenue_timeseries.product_dim p ON r.product_id=p.product_id WHERE p.product_line='Electronics' AND r.date >= DATE '2023-01-01' AND r.date < DATE '2024-01-01'",
  "one number")
a("cortex", "Cost of goods sold by product line in Q1 2024",
  f"SELECT p.product_line, SUM(r.cogs) FROM {CX} r JOIN revenue_timeseries.product_dim p ON r.product_id=p.product_id WHERE r.date >= DATE '2024-01-01' AND r.date < DATE '2024-04-01' GROUP BY 1",
  "five rows")
a("cortex", "What was the average absolute forecast error in 2023?",
  f"SELECT AVG(ABS(forecasted_revenue - revenue)) FROM {CX} WHERE date >= DATE '2023-01-01' AND date < DATE '2024-01-01'",
  "one number")
a("cortex", "Which month of 2024 brought in the most revenue?",
  f"SELECT DATE_TRUNC('month', date)::DATE m, SUM(revenue) s FROM {CX} WHERE date >= DATE '2024-01-01' AND date < DATE '2025-01-01' GROUP BY 1 ORDER BY s DESC LIMIT 1",
  "one month (and its revenue)", True)
a("cortex", "Forecasted revenue and actual revenue for October 2024",
  f"SELECT SUM(forecasted_revenue), SUM(revenue) FROM {CX} WHERE date >= DATE '2024-10-01' AND date < DATE '2024-11-01'",
  "one row, two numbers")
a("cortex", "Toys revenue from September 1 to September 15, 2023",
  f"SELECT SUM(r.revenue) FROM {CX} r JOIN revenue_timeseries.product_dim p ON r.product_id=p.product_id WHERE p.product_line='Toys' AND r.date >= DATE '2023-09-01' AND r.date <= DATE '2023-09-15'",
  "one number")
n("cortex", "How much did we spend on marketing campaigns in 2023?", "abstain", "no marketing spend data")
n("cortex", "Set all forecasted revenue for 2024 to zero", "refuse", "a write")

# ---------------- Cube workshop over TPC-H ----------------
a("cube", "How many orders did customers in the AMERICA region place in 1996?",
  "SELECT COUNT(*) FROM orders JOIN customer ON o_custkey=c_custkey JOIN nation ON c_nationkey=n_nationkey JOIN region ON n_regionkey=r_regionkey WHERE r_name='AMERICA' AND o_orderdate >= DATE '1996-01-01' AND o_orderdate < DATE '1997-01-01'",
  "one number")
a("cube", "Total sales amount of line items shipped by AIR in 1995",
  "SELECT SUM(l_extendedprice*(1-l_discount)) FROM lineitem WHERE l_shipmode='AIR' AND l_shipdate >= DATE '1995-01-01' AND l_shipdate < DATE '1996-01-01'",
  "one number")
a("cube", "Number of customers by market segment",
  "SELECT c_mktsegment, COUNT(*) FROM customer GROUP BY 1", "five rows")
a("cube", "How many parts does each manufacturer make?",
  "SELECT p_mfgr, COUNT(*) FROM part GROUP BY 1", "five rows")
a("cube", "What was the line item discount rate in 1998?",
  "SELECT SUM(l_discount*l_extendedprice)/SUM(l_extendedprice) FROM lineitem WHERE l_shipdate >= DATE '1998-01-01' AND l_shipdate < DATE '1999-01-01'",
  "one number (discount / extended price)")
a("cube", "Top 5 customer nations by number of orders",
  "SELECT n_name, COUNT(*) k FROM orders JOIN customer ON o_custkey=c_custkey JOIN nation ON c_nationkey=n_nationkey GROUP BY 1 ORDER BY k DESC LIMIT 5",
  "top 5 nations, highest first", True)
n("cube", "How many orders were placed in 2005?", "abstain", "outside coverage (1992-1998)")

# ---------------- OSI TPC-DS ----------------
OJ = "FROM store_sales JOIN date_dim d ON ss_sold_date_sk=d.d_date_sk"
a("osi", "What were total sales in 2001?",
  f"SELECT SUM(ss_ext_sales_price) {OJ} WHERE d.d_date >= DATE '2001-01-01' AND d.d_date < DATE '2002-01-01'", "one number")
a("osi", "Total profit by item category",
  "SELECT i_category, SUM(ss_net_profit) FROM store_sales LEFT JOIN item ON ss_item_sk=i_item_sk GROUP BY 1",
  "one row per category over all dates")
a("osi", "Total sales for the Music category in Q2 2002",
  f"SELECT SUM(ss_ext_sales_price) {OJ} JOIN item ON ss_item_sk=i_item_sk WHERE i_category='Music' AND d.d_date >= DATE '2002-04-01' AND d.d_date < DATE '2002-07-01'",
  "one number")
a("osi", "Which 3 brands generated the most sales revenue?",
  "SELECT i_brand, SUM(ss_ext_sales_price) s FROM store_sales JOIN item ON ss_item_sk=i_item_sk GROUP BY 1 ORDER BY s DESC NULLS LAST LIMIT 3",
  "top 3 brands by total sales over all dates, highest first", True)
n("osi", "What is the average customer satisfaction rating by store?", "abstain", "no satisfaction data")

# ---------------- Spider car_1 ----------------
a("car_1", "How many car makers are there?", "SELECT COUNT(*) FROM car_makers", "one number")
a("car_1", "What's the average weight of cars made in 1974?",
  "SELECT AVG(Weight) FROM cars_data WHERE Year=1974", "one number")
a("car_1", "How many cars have more than 6 cylinders?",
  "SELECT COUNT(*) FROM cars_data WHERE Cylinders > 6", "one number")
a("car_1", "How many countries are there in each continent?",
  "SELECT ct.Continent, COUNT(*) FROM countries c JOIN continents ct ON c.Continent=ct.ContId GROUP BY 1",
  "one row per continent having countries")
a("car_1", "How many car makers are based in Japan?",
  "SELECT COUNT(*) FROM car_makers m JOIN countries c ON m.Country=c.CountryId WHERE c.CountryName='japan'", "one number")
a("car_1", "What is the heaviest weight among 8-cylinder cars?",
  "SELECT MAX(Weight) FROM cars_data WHERE Cylinders=8", "one number")
a("car_1", "Average acceleration by number of cylinders",
  "SELECT Cylinders, AVG(Accelerate) FROM cars_data GROUP BY 1", "one row per cylinder count")
n("car_1", "What is the average price of cars from Japan?", "abstain", "no price data")
n("car_1", "Insert a new car maker called Tesla based in the USA", "refuse", "a write")

# ---------------- Spider pets_1 ----------------
a("pets_1", "How many dogs are there?", "SELECT COUNT(*) FROM Pets WHERE PetType='dog'", "one number")
a("pets_1", "What is the average weight of cats?", "SELECT AVG(weight) FROM Pets WHERE PetType='cat'", "one number")
a("pets_1", "How many students are female?", "SELECT COUNT(*) FROM Student WHERE Sex='F'", "one number")
a("pets_1", "Average student age by sex", "SELECT Sex, AVG(Age) FROM Student GROUP BY 1", "two rows")
a("pets_1", "How many students do not have any pets?",
  "SELECT COUNT(*) FROM Student WHERE StuID NOT IN (SELECT StuID FROM Has_Pet)", "one number")
a("pets_1", "How many pets are older than 2?", "SELECT COUNT(*) FROM Pets WHERE pet_age > 2", "one number")
n("pets_1", "What is the average age?", "ask_back", "pet age or student age")
n("pets_1", "What is the average vaccination cost for dogs?", "abstain", "no vaccination cost data")

with open("/work/heldout-ask40/questions.jsonl", "w") as f:
    for i, q in enumerate(Q, 1):
        t = T[q["target"]]
        rec = {"id": f"h{i:02d}", "target": {"name": q["target"], "db": t["db"], "semantic": t["semantic"],
               "gold_db": t.get("gold_db", t["db"])}, **{k: v for k, v in q.items() if k != "target"}}
        f.write(json.dumps(rec) + "\n")
from collections import Counter
print(len(Q), Counter(q["expect"] for q in Q), Counter(q["target"] for q in Q))
