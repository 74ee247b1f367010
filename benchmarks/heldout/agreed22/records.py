DS = "{tpcds}"
H = "{tpch}"
SI = "{csv:sfguide-snowflake-intelligence/data}"
CA = "{csv:sfguide-cortex-analyst/data}"
MF = "{csv:metricflow-tutorial/dbt-metricflow/dbt_metricflow/cli/sample_dbt_models/seeds}"
CAR = "../shared/data/spider-slice/database/car_1/car_1.sqlite"
CON = "../shared/data/spider-slice/database/concert_singer/concert_singer.sqlite"
PET = "../shared/data/spider-slice/database/pets_1/pets_1.sqlite"

# (id, db, question, sql, gold, label, kind, ordered, why_wrong)
R = []
def rec(i, db, q, sql, gold, label, kind="", ordered=False, why=""):
    R.append(dict(id=i, db=db, question=q, sql=" ".join(sql.split()), gold=" ".join(gold.split()),
                  label=label, kind=kind, ordered=ordered, why=why))

# ---------------- TPC-DS ----------------
rec("h22_d01", DS, "What share of our 2001 store sales net paid came in on weekends?",
    """WITH t AS (SELECT d_weekend, sum(ss_net_paid) AS paid FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
       WHERE d_year = 2001 GROUP BY d_weekend)
       SELECT (SELECT paid FROM t WHERE d_weekend = 'Y') / (SELECT sum(paid) FROM t) AS weekend_share""",
    """SELECT sum(CASE WHEN d_weekend = 'Y' THEN ss_net_paid ELSE 0 END) / sum(ss_net_paid)
       FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 2001""", 1)
rec("h22_d02", DS, "What percentage of our customers have the preferred customer flag set?",
    """SELECT 100.0 * sum(CASE WHEN c_preferred_cust_flag = 'Y' THEN 1 ELSE 0 END) / count(c_preferred_cust_flag) AS pct_preferred
       FROM customer""",
    """SELECT 100.0 * count(*) FILTER (WHERE c_preferred_cust_flag = 'Y') / count(*) FROM customer""", 0,
    "wrong_denominator", why="divides by count(c_preferred_cust_flag), which leaves out the customers with no flag recorded, so the share of all customers is overstated")
rec("h22_d03", DS, "How many customers have never bought anything in our store?",
    """SELECT count(*) AS customers_without_store_purchase FROM customer c
       LEFT JOIN (SELECT DISTINCT ss_customer_sk FROM store_sales) s ON s.ss_customer_sk = c.c_customer_sk
       WHERE s.ss_customer_sk IS NULL""",
    """SELECT count(*) FROM customer c WHERE NOT EXISTS (SELECT 1 FROM store_sales s WHERE s.ss_customer_sk = c.c_customer_sk)""", 1)
rec("h22_d04", DS, "For every customer born in 1985, how many separate store visits (tickets) did they have? Show 0 for those who never came.",
    """SELECT c.c_customer_id, count(DISTINCT s.ss_ticket_number) AS visits FROM customer c
       JOIN store_sales s ON s.ss_customer_sk = c.c_customer_sk WHERE c.c_birth_year = 1985 GROUP BY c.c_customer_id""",
    """SELECT c.c_customer_id, count(DISTINCT s.ss_ticket_number) FROM customer c
       LEFT JOIN store_sales s ON s.ss_customer_sk = c.c_customer_sk WHERE c.c_birth_year = 1985 GROUP BY c.c_customer_id""", 0,
    "inner_join_drops_unmatched", why="inner join drops the customers born in 1985 with no store visits, who should be listed with 0")
rec("h22_d05", DS, "How many different customers bought something on our website in 2000?",
    """SELECT count(ws_bill_customer_sk) AS customers FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk WHERE d_year = 2000""",
    """SELECT count(DISTINCT ws_bill_customer_sk) FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk WHERE d_year = 2000""", 0,
    "count_rows_not_distinct", why="counts web sale lines, not distinct billing customers")
rec("h22_d06", DS, "How many catalog orders were placed in December 2000?",
    """SELECT count(*) AS orders FROM (SELECT cs_order_number FROM catalog_sales JOIN date_dim ON cs_sold_date_sk = d_date_sk
       WHERE d_date BETWEEN DATE '2000-12-01' AND DATE '2000-12-31' GROUP BY cs_order_number) o""",
    """SELECT count(DISTINCT cs_order_number) FROM catalog_sales JOIN date_dim ON cs_sold_date_sk = d_date_sk WHERE d_year = 2000 AND d_moy = 12""", 1)
rec("h22_d07", DS, "What was the overall average net paid per store sale line in 2002?",
    """SELECT avg(cat_avg) AS avg_net_paid FROM (SELECT i_category, avg(ss_net_paid) AS cat_avg FROM store_sales
       JOIN date_dim ON ss_sold_date_sk = d_date_sk JOIN item ON ss_item_sk = i_item_sk WHERE d_year = 2002 GROUP BY i_category) t""",
    """SELECT avg(ss_net_paid) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 2002""", 0,
    "average_of_averages", why="averages the per-category averages, weighting each category equally instead of every sale line")
rec("h22_d08", DS, "Which 5 items brought in the most store net paid in 2001? Highest first.",
    """SELECT i_item_id, total_paid FROM (SELECT i_item_id, sum(ss_net_paid) AS total_paid,
       row_number() OVER (ORDER BY sum(ss_net_paid) DESC) AS rn FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
       JOIN item ON ss_item_sk = i_item_sk WHERE d_year = 2001 GROUP BY i_item_id) t WHERE rn <= 5 ORDER BY rn""",
    """SELECT i_item_id, sum(ss_net_paid) AS p FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
       JOIN item ON ss_item_sk = i_item_sk WHERE d_year = 2001 GROUP BY i_item_id ORDER BY p DESC LIMIT 5""", 1, ordered=True)
rec("h22_d09", DS, "What were the top 3 item categories by units sold on the web in 1998?",
    """SELECT i_category, sum(ws_quantity) AS units_sold FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk
       JOIN item ON ws_item_sk = i_item_sk WHERE d_year = 1998 GROUP BY i_category ORDER BY sum(ws_net_paid) DESC LIMIT 3""",
    """SELECT i_category, sum(ws_quantity) AS u FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk
       JOIN item ON ws_item_sk = i_item_sk WHERE d_year = 1998 GROUP BY i_category ORDER BY u DESC LIMIT 3""", 0,
    "top_n_wrong_measure", ordered=True, why="ranks the categories by net paid instead of by units sold")
rec("h22_d10", DS, "How many store sale lines in 2000 had a quantity of at least 90?",
    """SELECT count(*) FROM store_sales WHERE NOT ss_quantity < 90
       AND ss_sold_date_sk IN (SELECT d_date_sk FROM date_dim WHERE d_year = 2000)""",
    """SELECT count(*) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 2000 AND ss_quantity >= 90""", 1)
rec("h22_d11", DS, "How many catalog orders had more than 10 line items?",
    """WITH lines AS (SELECT cs_order_number, count(*) AS n FROM catalog_sales GROUP BY cs_order_number)
       SELECT sum(CASE WHEN n > 10 THEN 1 ELSE 0 END) AS orders FROM lines""",
    """SELECT count(*) FROM (SELECT cs_order_number FROM catalog_sales GROUP BY cs_order_number HAVING count(*) > 10) t""", 1)
rec("h22_d12", DS, "Which customers spent more than 50,000 in total at our store in 2002? Give their names.",
    """WITH spend AS (SELECT ss_customer_sk, sum(ss_net_paid) AS total FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
       WHERE d_year = 2002 GROUP BY ss_customer_sk)
       SELECT c.c_customer_id, c.c_first_name, c.c_last_name FROM spend JOIN customer c ON c.c_customer_sk = spend.ss_customer_sk
       WHERE spend.total > 50000""",
    """SELECT c_customer_id, c_first_name, c_last_name FROM customer JOIN store_sales ON ss_customer_sk = c_customer_sk
       JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 2002
       GROUP BY c_customer_id, c_first_name, c_last_name HAVING sum(ss_net_paid) > 50000""", 1)
rec("h22_d13", DS, "How many customers spent more than 5,000 in total at our store in 1999?",
    """SELECT count(DISTINCT ss_customer_sk) AS customers FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
       WHERE d_year = 1999 AND ss_net_paid > 5000""",
    """SELECT count(*) FROM (SELECT ss_customer_sk FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
       WHERE d_year = 1999 AND ss_customer_sk IS NOT NULL GROUP BY ss_customer_sk HAVING sum(ss_net_paid) > 5000) t""", 0,
    "having_vs_where", why="puts the spending threshold on single sale lines in WHERE instead of on each customer's total in HAVING")
rec("h22_d14", DS, "What were our catalog sales (net paid) on non-holiday days in December 2000?",
    """SELECT sum(cs_net_paid) AS net_paid FROM catalog_sales JOIN date_dim ON cs_sold_date_sk = d_date_sk
       WHERE d_year = 2000 AND d_moy = 12 AND d_holiday = 'Y'""",
    """SELECT sum(cs_net_paid) FROM catalog_sales JOIN date_dim ON cs_sold_date_sk = d_date_sk
       WHERE d_year = 2000 AND d_moy = 12 AND d_holiday = 'N'""", 0,
    "flag_flipped", why="d_holiday = 'Y' keeps the holidays; the question asks for the non-holiday days ('N')")
rec("h22_d15", DS, "By what percentage did web sales net paid grow from 2000 to 2001?",
    """SELECT 100.0 * (sum(CASE WHEN d_year = 2001 THEN ws_net_paid END) / sum(CASE WHEN d_year = 2000 THEN ws_net_paid END) - 1) AS growth_pct
       FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk""",
    """WITH y AS (SELECT d_year, sum(ws_net_paid) AS s FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk
       WHERE d_year IN (2000, 2001) GROUP BY d_year)
       SELECT 100.0 * ((SELECT s FROM y WHERE d_year = 2001) - (SELECT s FROM y WHERE d_year = 2000)) / (SELECT s FROM y WHERE d_year = 2000)""", 1)
rec("h22_d16", DS, "By what percentage did catalog sales net paid grow from 1999 to 2000?",
    """SELECT 100.0 * (sum(CASE WHEN d_year = 2000 THEN cs_net_paid ELSE 0 END) - sum(CASE WHEN d_year = 1999 THEN cs_net_paid ELSE 0 END))
       / sum(CASE WHEN d_year = 2000 THEN cs_net_paid ELSE 0 END) AS growth_pct
       FROM catalog_sales JOIN date_dim ON cs_sold_date_sk = d_date_sk WHERE d_year IN (1999, 2000)""",
    """WITH y AS (SELECT d_year, sum(cs_net_paid) AS s FROM catalog_sales JOIN date_dim ON cs_sold_date_sk = d_date_sk
       WHERE d_year IN (1999, 2000) GROUP BY d_year)
       SELECT 100.0 * ((SELECT s FROM y WHERE d_year = 2000) - (SELECT s FROM y WHERE d_year = 1999)) / (SELECT s FROM y WHERE d_year = 1999)""", 0,
    "wrong_denominator", why="divides the change by the 2000 total instead of the 1999 base year")
rec("h22_d17", DS, "How many customers bought both in our store and on our website in 2002?",
    """SELECT count(*) FROM customer c
       WHERE EXISTS (SELECT 1 FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE ss_customer_sk = c.c_customer_sk AND d_year = 2002)
       AND EXISTS (SELECT 1 FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk WHERE ws_bill_customer_sk = c.c_customer_sk AND d_year = 2002)""",
    """SELECT count(*) FROM (SELECT ss_customer_sk FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
       WHERE d_year = 2002 AND ss_customer_sk IS NOT NULL
       INTERSECT SELECT ws_bill_customer_sk FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk
       WHERE d_year = 2002 AND ws_bill_customer_sk IS NOT NULL) t""", 1)
rec("h22_d18", DS, "What was our store net paid from January 1 through March 31, 2001?",
    """SELECT sum(ss_net_paid) AS net_paid FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
       WHERE d_date >= DATE '2001-01-01' AND d_date < DATE '2001-03-31'""",
    """SELECT sum(ss_net_paid) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
       WHERE d_date BETWEEN DATE '2001-01-01' AND DATE '2001-03-31'""", 0,
    "date_end_excluded", why="'< 2001-03-31' leaves out March 31, which 'through' includes")

# ---------------- TPC-H ----------------
rec("h22_h01", H, "How many orders did customers in the BUILDING market segment place in 1995?",
    """SELECT count(o_orderkey) FROM orders WHERE o_custkey IN (SELECT c_custkey FROM customer WHERE c_mktsegment = 'BUILDING')
       AND o_orderdate >= DATE '1995-01-01' AND o_orderdate < DATE '1996-01-01'""",
    """SELECT count(*) FROM orders JOIN customer ON o_custkey = c_custkey WHERE c_mktsegment = 'BUILDING' AND year(o_orderdate) = 1995""", 1)
rec("h22_h02", H, "What was the revenue (extended price less discount) in 1996 on line items supplied by German suppliers?",
    """SELECT sum(l_extendedprice * (1 - l_discount)) AS revenue FROM lineitem JOIN orders ON l_orderkey = o_orderkey
       JOIN supplier ON l_suppkey = s_suppkey JOIN customer ON o_custkey = c_custkey JOIN nation ON c_nationkey = n_nationkey
       WHERE n_name = 'GERMANY' AND year(o_orderdate) = 1996""",
    """SELECT sum(l_extendedprice * (1 - l_discount)) FROM lineitem JOIN orders ON l_orderkey = o_orderkey
       JOIN supplier ON l_suppkey = s_suppkey JOIN nation ON s_nationkey = n_nationkey
       WHERE n_name = 'GERMANY' AND year(o_orderdate) = 1996""", 0,
    "wrong_join_key", why="joins nation on the customer's c_nationkey instead of the supplier's s_nationkey: German customers, not German suppliers")
rec("h22_h03", H, "Which AUTOMOBILE-segment customers with an account balance above 9,000 have never placed an order?",
    """SELECT c_name FROM customer WHERE c_mktsegment = 'AUTOMOBILE' AND c_acctbal > 9000
       EXCEPT SELECT c_name FROM customer JOIN orders ON o_custkey = c_custkey""",
    """SELECT c_name FROM customer c WHERE c_mktsegment = 'AUTOMOBILE' AND c_acctbal > 9000
       AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.o_custkey = c.c_custkey)""", 1)
rec("h22_h04", H, "How many customers placed at least one 1-URGENT order in 1997?",
    """SELECT count(o_custkey) AS customers FROM orders WHERE o_orderpriority = '1-URGENT' AND year(o_orderdate) = 1997""",
    """SELECT count(DISTINCT o_custkey) FROM orders WHERE o_orderpriority = '1-URGENT' AND year(o_orderdate) = 1997""", 0,
    "count_rows_not_distinct", why="counts urgent orders, not distinct customers")
rec("h22_h05", H, "What was the average order total price per year? List by year.",
    """SELECT DISTINCT extract(year FROM o_orderdate) AS order_year,
       avg(o_totalprice) OVER (PARTITION BY extract(year FROM o_orderdate)) AS avg_total FROM orders ORDER BY order_year""",
    """SELECT year(o_orderdate) AS y, avg(o_totalprice) FROM orders GROUP BY 1 ORDER BY 1""", 1, ordered=True)
rec("h22_h06", H, "How many parts have a size of at least 45?",
    """SELECT count(*) AS parts FROM part WHERE p_size > 45""",
    """SELECT count(*) FROM part WHERE p_size >= 45""", 0,
    "bound_strictness", why="'at least 45' includes 45; p_size > 45 leaves size 45 out")
rec("h22_h07", H, "Of the revenue (extended price after discount) on line items shipped in 1994, what percentage came from returned items?",
    """WITH r AS (SELECT l_returnflag, sum(l_extendedprice * (1 - l_discount)) AS rev FROM lineitem
       WHERE l_shipdate BETWEEN DATE '1994-01-01' AND DATE '1994-12-31' GROUP BY l_returnflag)
       SELECT 100 * sum(rev) FILTER (WHERE l_returnflag = 'R') / sum(rev) AS returned_pct FROM r""",
    """SELECT 100 * sum(CASE WHEN l_returnflag = 'R' THEN l_extendedprice * (1 - l_discount) ELSE 0 END) / sum(l_extendedprice * (1 - l_discount))
       FROM lineitem WHERE year(l_shipdate) = 1994""", 1)
rec("h22_h08", H, "How many orders that are still open have 1-URGENT priority?",
    """SELECT count(*) AS open_urgent_orders FROM orders WHERE o_orderpriority = '1-URGENT'""",
    """SELECT count(*) FROM orders WHERE o_orderstatus = 'O' AND o_orderpriority = '1-URGENT'""", 0,
    "lost_condition", why="drops the o_orderstatus = 'O' condition, counting every urgent order, open or not")
rec("h22_h09", H, "Who were our top 5 customers by total order value in 1998? Highest first.",
    """SELECT c_name, total FROM (SELECT c_name, sum(o_totalprice) AS total, rank() OVER (ORDER BY sum(o_totalprice) DESC) AS rnk
       FROM customer JOIN orders ON o_custkey = c_custkey WHERE o_orderdate >= DATE '1998-01-01' GROUP BY c_name) t
       WHERE rnk <= 5 ORDER BY total DESC""",
    """SELECT c_name, sum(o_totalprice) AS t FROM customer JOIN orders ON o_custkey = c_custkey WHERE year(o_orderdate) = 1998
       GROUP BY c_name ORDER BY t DESC LIMIT 5""", 1, ordered=True)
rec("h22_h10", H, "How many line items were shipped in the first quarter of 1995?",
    """SELECT count(*) AS line_items FROM lineitem WHERE l_commitdate >= DATE '1995-01-01' AND l_commitdate < DATE '1995-04-01'""",
    """SELECT count(*) FROM lineitem WHERE l_shipdate >= DATE '1995-01-01' AND l_shipdate < DATE '1995-04-01'""", 0,
    "wrong_column", why="filters on the commit date instead of the ship date")
rec("h22_h11", H, "What is the average account balance in each market segment, counting only customers with a positive balance?",
    """SELECT c_mktsegment, avg(CASE WHEN c_acctbal > 0 THEN c_acctbal END) AS avg_balance FROM customer GROUP BY c_mktsegment""",
    """SELECT c_mktsegment, avg(c_acctbal) FROM customer WHERE c_acctbal > 0 GROUP BY c_mktsegment""", 1)
rec("h22_h12", H, "What total quantity did we ship by MAIL in 1997?",
    """SELECT count(l_quantity) AS total_quantity FROM lineitem WHERE l_shipmode = 'MAIL' AND year(l_shipdate) = 1997""",
    """SELECT sum(l_quantity) FROM lineitem WHERE l_shipmode = 'MAIL' AND year(l_shipdate) = 1997""", 0,
    "wrong_aggregate", why="count(l_quantity) counts the line items; the total quantity is sum(l_quantity)")

# ---------------- Snowflake Intelligence CSVs ----------------
rec("h22_c01", SI, "What was the click-through rate of the Summer Fitness Campaign in June 2025?",
    """SELECT CAST(sum(clicks) AS DOUBLE) / sum(impressions) AS ctr FROM marketing_campaign_metrics
       WHERE campaign_name = 'Summer Fitness Campaign' AND strftime(date, '%Y-%m') = '2025-06'""",
    """SELECT sum(clicks) * 1.0 / sum(impressions) FROM marketing_campaign_metrics
       WHERE campaign_name = 'Summer Fitness Campaign' AND date BETWEEN DATE '2025-06-01' AND DATE '2025-06-30'""", 1)
rec("h22_c02", SI, "What was the overall click-through rate of the Summer Fitness Campaign?",
    """SELECT avg(clicks * 1.0 / impressions) AS ctr FROM marketing_campaign_metrics WHERE campaign_name = 'Summer Fitness Campaign'""",
    """SELECT sum(clicks) * 1.0 / sum(impressions) FROM marketing_campaign_metrics WHERE campaign_name = 'Summer Fitness Campaign'""", 0,
    "average_of_averages", why="averages the daily click-through rates instead of total clicks over total impressions")
rec("h22_c03", SI, "Which region had the highest total sales amount in July 2025?",
    """WITH r AS (SELECT region, sum(sales_amount) AS total FROM sales WHERE year(date) = 2025 AND month(date) = 7 GROUP BY region)
       SELECT region FROM r WHERE total = (SELECT max(total) FROM r)""",
    """SELECT region FROM sales WHERE date >= DATE '2025-07-01' AND date < DATE '2025-08-01'
       GROUP BY region ORDER BY sum(sales_amount) DESC LIMIT 1""", 1)
rec("h22_c04", SI, "What share of total sales amount came from Footwear?",
    """SELECT sum(CASE WHEN p.category = 'Footwear' THEN s.units_sold ELSE 0 END) * 1.0 / sum(s.units_sold) AS footwear_share
       FROM sales s JOIN products p ON s.product_id = p.product_id""",
    """SELECT sum(CASE WHEN p.category = 'Footwear' THEN s.sales_amount ELSE 0 END) / sum(s.sales_amount)
       FROM sales s JOIN products p ON s.product_id = p.product_id""", 0,
    "wrong_column", why="computes Footwear's share of units sold, not of sales amount")
rec("h22_c05", SI, "How many Casual Wear units did we sell on weekends in June 2025?",
    """SELECT sum(s.units_sold) AS units FROM sales s JOIN products p ON s.product_id = p.product_id
       WHERE p.category = 'Casual Wear' AND dayname(s.date) IN ('Saturday', 'Sunday')
       AND s.date >= DATE '2025-06-01' AND s.date < DATE '2025-07-01'""",
    """SELECT sum(units_sold) FROM sales JOIN products USING (product_id) WHERE category = 'Casual Wear'
       AND dayofweek(date) IN (0, 6) AND date BETWEEN DATE '2025-06-01' AND DATE '2025-06-30'""", 1)
rec("h22_c06", SI, "What is the average daily sales amount for each region?",
    """SELECT region, avg(sales_amount) AS avg_daily_sales FROM sales GROUP BY region""",
    """SELECT region, avg(day_total) FROM (SELECT region, date, sum(sales_amount) AS day_total FROM sales GROUP BY region, date) t GROUP BY region""", 0,
    "wrong_grain", why="averages single product-day rows instead of each region's daily totals")
rec("h22_c07", SI, "On how many days did an influencer mention us on social media?",
    """SELECT count(*) AS days FROM (SELECT DISTINCT date FROM social_media_mentions WHERE coalesce(influencer, '') <> '') d""",
    """SELECT count(DISTINCT date) FROM social_media_mentions WHERE influencer IS NOT NULL""", 1)
rec("h22_c08", SI, "What was the North region's sales amount from June 1 through June 30, 2025?",
    """SELECT sum(sales_amount) AS north_sales FROM sales WHERE region = 'North' AND date >= DATE '2025-06-01' AND date < DATE '2025-06-30'""",
    """SELECT sum(sales_amount) FROM sales WHERE region = 'North' AND date BETWEEN DATE '2025-06-01' AND DATE '2025-06-30'""", 0,
    "date_end_excluded", why="'< 2025-06-30' leaves out June 30, which 'through' includes")
rec("h22_c09", SI, "On how many days did the Summer Fitness Campaign get more than 10,000 impressions?",
    """SELECT count(*) AS days FROM (SELECT date FROM marketing_campaign_metrics WHERE campaign_name = 'Summer Fitness Campaign'
       GROUP BY date HAVING sum(impressions) > 10000) t""",
    """SELECT count(*) FROM marketing_campaign_metrics WHERE campaign_name = 'Summer Fitness Campaign' AND impressions > 10000""", 1)
rec("h22_c10", SI, "What were the top 3 products by units sold in the South region in August 2025?",
    """SELECT p.product_name, sum(s.units_sold) AS units FROM sales s JOIN products p ON s.product_id = p.product_id
       WHERE s.region = 'South' AND s.date >= DATE '2025-08-01' AND s.date < DATE '2025-09-01'
       GROUP BY p.product_name ORDER BY sum(s.sales_amount) DESC LIMIT 3""",
    """SELECT p.product_name, sum(s.units_sold) AS units FROM sales s JOIN products p ON s.product_id = p.product_id
       WHERE s.region = 'South' AND s.date >= DATE '2025-08-01' AND s.date < DATE '2025-09-01'
       GROUP BY p.product_name ORDER BY units DESC LIMIT 3""", 0,
    "top_n_wrong_measure", ordered=True, why="ranks the products by sales amount instead of units sold")

# ---------------- Cortex Analyst CSVs ----------------
rec("h22_c11", CA, "What was the gross margin percentage for Electronics in 2023?",
    """SELECT 100 * (1 - sum(d.COGS) / sum(d.REVENUE)) AS gross_margin_pct FROM daily_revenue d
       WHERE d.Product_id = (SELECT Product_id FROM product WHERE Product_line = 'Electronics')
       AND d.DATE >= TIMESTAMP '2023-01-01' AND d.DATE < TIMESTAMP '2024-01-01'""",
    """SELECT 100 * (sum(REVENUE) - sum(COGS)) / sum(REVENUE) FROM daily_revenue d JOIN product p ON d.Product_id = p.Product_id
       WHERE p.Product_line = 'Electronics' AND year(d.DATE) = 2023""", 1)
rec("h22_c12", CA, "How much revenue did Europe bring in during 2023?",
    """SELECT sum(d.REVENUE) AS revenue FROM daily_revenue d JOIN region r ON d.Region_id = r.Region_id
       WHERE r.Region = 'Europe' AND year(d.DATE) = 2023""",
    """SELECT sum(REVENUE) FROM daily_revenue WHERE Region_id IN (SELECT Region_id FROM region WHERE Region = 'Europe') AND year(DATE) = 2023""", 0,
    "join_inflates", why="region has one row per state (five per Region_id), so the join repeats every revenue row five times")
rec("h22_c13", CA, "Which product line had the highest revenue in 2023?",
    """SELECT p.Product_line FROM daily_revenue d JOIN product p ON d.Product_id = p.Product_id WHERE year(d.DATE) = 2023
       GROUP BY p.Product_line HAVING sum(d.REVENUE) >= ALL (SELECT sum(REVENUE) FROM daily_revenue WHERE year(DATE) = 2023 GROUP BY Product_id)""",
    """SELECT p.Product_line FROM daily_revenue d JOIN product p ON d.Product_id = p.Product_id WHERE year(d.DATE) = 2023
       GROUP BY p.Product_line ORDER BY sum(d.REVENUE) DESC LIMIT 1""", 1)
rec("h22_c14", CA, "On how many days in 2024 did revenue beat the forecast?",
    """SELECT count(*) AS days FROM daily_revenue WHERE year(DATE) = 2024 AND REVENUE < FORECASTED_REVENUE""",
    """SELECT count(*) FROM daily_revenue WHERE year(DATE) = 2024 AND REVENUE > FORECASTED_REVENUE""", 0,
    "flipped_comparison", why="REVENUE < FORECASTED_REVENUE counts the days revenue fell short of the forecast")
rec("h22_c15", CA, "Show the monthly revenue for Books in 2024, month by month.",
    """WITH books AS (SELECT DATE, REVENUE FROM daily_revenue WHERE Product_id IN (SELECT Product_id FROM product WHERE Product_line = 'Books'))
       SELECT extract(month FROM DATE) AS month, sum(REVENUE) AS revenue FROM books WHERE extract(year FROM DATE) = 2024
       GROUP BY extract(month FROM DATE) ORDER BY month""",
    """SELECT month(d.DATE) AS m, sum(d.REVENUE) FROM daily_revenue d JOIN product p ON d.Product_id = p.Product_id
       WHERE p.Product_line = 'Books' AND year(d.DATE) = 2024 GROUP BY 1 ORDER BY 1""", 1, ordered=True)

# ---------------- MetricFlow seeds ----------------
rec("h22_c16", MF, "Which countries have no customers?",
    """SELECT k.country FROM countries_seed k LEFT JOIN customers_seed c ON c.country = k.country WHERE c.id_customer IS NULL""",
    """SELECT country FROM countries_seed WHERE country NOT IN (SELECT country FROM customers_seed)""", 1)
rec("h22_c17", MF, "How many customers does each region have? Include regions with none.",
    """SELECT k.region, count(c.id_customer) AS customers FROM countries_seed k JOIN customers_seed c ON c.country = k.country GROUP BY k.region""",
    """SELECT k.region, count(c.id_customer) FROM countries_seed k LEFT JOIN customers_seed c ON c.country = k.country GROUP BY k.region""", 0,
    "inner_join_drops_unmatched", why="the inner join drops the region with no customers (SA), which should show 0")
rec("h22_c18", MF, "How many different orders had a buy transaction in March 2022?",
    """SELECT count(*) AS orders FROM (SELECT id_order FROM transactions_seed WHERE transaction_type_name = 'buy'
       AND year(ds) = 2022 AND month(ds) = 3 GROUP BY id_order) o""",
    """SELECT count(DISTINCT id_order) FROM transactions_seed WHERE transaction_type_name = 'buy' AND ds BETWEEN DATE '2022-03-01' AND DATE '2022-03-31'""", 1)
rec("h22_c19", MF, "How many orders has each customer placed?",
    """SELECT id_customer, count(*) AS orders FROM transactions_seed GROUP BY id_customer""",
    """SELECT id_customer, count(DISTINCT id_order) FROM transactions_seed GROUP BY id_customer""", 0,
    "count_rows_not_distinct", why="counts transactions per customer; an order has several transactions")
rec("h22_c20", MF, "What was the total buy transaction amount by customer country?",
    """SELECT c.country, sum(t.transaction_amount_usd) AS total_buy FROM transactions_seed t JOIN customers_seed c ON t.ds = c.ds
       WHERE t.transaction_type_name = 'buy' GROUP BY c.country""",
    """SELECT c.country, sum(t.transaction_amount_usd) FROM transactions_seed t JOIN customers_seed c ON t.id_customer = c.id_customer
       WHERE t.transaction_type_name = 'buy' GROUP BY c.country""", 0,
    "wrong_join_key", why="joins transactions to customers on the date (ds) instead of id_customer")

# ---------------- Spider ----------------
rec("h22_s01", CAR, "How many cars made after 1975 have more than 6 cylinders?",
    """SELECT count(*) FROM cars_data WHERE Cylinders >= 7 AND NOT Year <= 1975""",
    """SELECT count(*) FROM cars_data WHERE Year > 1975 AND Cylinders > 6""", 1)
rec("h22_s02", CAR, "How many European countries have no car makers?",
    """SELECT count(*) FROM countries WHERE Continent = 1 AND CountryId NOT IN (SELECT CAST(Country AS INTEGER) FROM car_makers)""",
    """SELECT count(*) FROM countries c JOIN continents k ON c.Continent = k.ContId
       WHERE k.Continent = 'europe' AND c.CountryId NOT IN (SELECT CAST(Country AS INTEGER) FROM car_makers)""", 0,
    "wrong_literal", why="Continent = 1 is america in the continents table; europe is 2")
rec("h22_s05", CON, "Which singers performed in concerts in both 2014 and 2015?",
    """SELECT s.Name FROM singer s JOIN singer_in_concert sc ON sc.Singer_ID = s.Singer_ID JOIN concert c ON c.concert_ID = sc.concert_ID
       WHERE c.Year IN ('2014', '2015') GROUP BY s.Singer_ID, s.Name HAVING count(DISTINCT c.Year) = 2""",
    """SELECT s.Name FROM singer s JOIN singer_in_concert sc ON sc.Singer_ID = s.Singer_ID JOIN concert c ON c.concert_ID = sc.concert_ID WHERE c.Year = '2014'
       INTERSECT SELECT s.Name FROM singer s JOIN singer_in_concert sc ON sc.Singer_ID = s.Singer_ID JOIN concert c ON c.concert_ID = sc.concert_ID WHERE c.Year = '2015'""", 1)
rec("h22_s06", CON, "Among stadiums that hosted a concert in 2014, which one has the highest average attendance?",
    """SELECT Name FROM stadium WHERE Stadium_ID IN (SELECT Stadium_ID FROM concert WHERE Year = '2014') ORDER BY Capacity DESC LIMIT 1""",
    """SELECT Name FROM stadium WHERE Stadium_ID IN (SELECT Stadium_ID FROM concert WHERE Year = '2014') ORDER BY Average DESC LIMIT 1""", 0,
    "top_n_wrong_measure", why="ranks the stadiums by capacity instead of average attendance")
rec("h22_s07", PET, "How many female students have a dog?",
    """SELECT count(*) FROM Student WHERE Sex = 'F' AND StuID IN (SELECT h.StuID FROM Has_Pet h JOIN Pets p ON h.PetID = p.PetID WHERE p.PetType = 'dog')""",
    """SELECT count(DISTINCT s.StuID) FROM Student s JOIN Has_Pet h ON h.StuID = s.StuID JOIN Pets p ON p.PetID = h.PetID WHERE s.Sex = 'F' AND p.PetType = 'dog'""", 1)
rec("h22_s03", CAR, "What is the average horsepower of 8-cylinder cars made before 1980?",
    """SELECT avg(CAST(Horsepower AS INTEGER)) FROM cars_data WHERE Cylinders = 8 AND Year < 1980 AND Horsepower <> 'null'""",
    """SELECT avg(CAST(Horsepower AS REAL)) FROM cars_data WHERE Cylinders = 8 AND Year <= 1979 AND Horsepower != 'null'""", 1)
rec("h22_s08", PET, "How many students older than 20 have no pets?",
    """SELECT count(*) FROM Student WHERE Age >= 20 AND StuID NOT IN (SELECT StuID FROM Has_Pet)""",
    """SELECT count(*) FROM Student s WHERE s.Age > 20 AND NOT EXISTS (SELECT 1 FROM Has_Pet h WHERE h.StuID = s.StuID)""", 0,
    "bound_strictness", why="'older than 20' excludes students aged exactly 20; Age >= 20 counts them")
rec("h22_s04", CAR, "How many models does each car maker have? Give the makers' full names.",
    """SELECT m.FullName, count(*) AS models FROM car_makers m JOIN model_list l ON l.Maker = m.Id JOIN car_names n ON n.Model = l.Model
       GROUP BY m.Id, m.FullName""",
    """SELECT m.FullName, count(*) FROM car_makers m JOIN model_list l ON l.Maker = m.Id GROUP BY m.Id, m.FullName""", 0,
    "join_inflates", why="joining car_names repeats each model once per car, so it counts each maker's cars, not its models")
rec("h22_s09", PET, "What is the average weight of each type of pet, heaviest first?",
    """SELECT PetType, avg(weight) AS avg_weight FROM Pets GROUP BY PetType ORDER BY 2 DESC""",
    """SELECT PetType, avg(weight) FROM Pets GROUP BY PetType ORDER BY avg(weight) DESC""", 1, ordered=True)
rec("h22_s10", CON, "How many concerts has each stadium hosted, including stadiums that have hosted none?",
    """SELECT s.Name, count(*) AS concerts FROM stadium s JOIN concert c ON c.Stadium_ID = s.Stadium_ID GROUP BY s.Stadium_ID, s.Name""",
    """SELECT s.Name, count(c.concert_ID) FROM stadium s LEFT JOIN concert c ON c.Stadium_ID = s.Stadium_ID GROUP BY s.Stadium_ID, s.Name""", 0,
    "inner_join_drops_unmatched", why="the inner join drops the stadiums that hosted no concert, which should show 0")
