"""The 60 records of heldout20 as data: (key, db, question, answer_sql, gold_sql, kind, ordered, why_wrong).

kind == "" means the answer is right (label 1). build.py turns this into the jsonl files.
"""

DS = "{tpcds}"
H = "{tpch}"
G = "{csv:semantic-model-generator/artifacts}"

R = [
    # ---------------- TPC-DS ----------------
    ("d01", DS, "How many store tickets were rung up on weekend days in 2001?",
     "WITH wk AS (SELECT d_date_sk FROM date_dim WHERE d_weekend = 'Y' AND d_year = 2001) "
     "SELECT count(DISTINCT ss_ticket_number) AS tickets FROM store_sales WHERE ss_sold_date_sk IN (SELECT d_date_sk FROM wk)",
     "SELECT count(DISTINCT ss_ticket_number) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk "
     "WHERE d_year = 2001 AND d_weekend = 'Y'",
     "", False, ""),
    ("d02", DS, "What was the total amount paid for web sales in 2000, tax included?",
     "SELECT sum(ws.ws_net_paid) AS total_paid FROM web_sales ws JOIN date_dim d ON ws.ws_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000",
     "SELECT sum(ws_net_paid_inc_tax) FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk WHERE d_year = 2000",
     "neighbour_column", False, "sums ws_net_paid (before tax) instead of ws_net_paid_inc_tax"),
    ("d03", DS, "What were the top 5 item categories by store sales revenue in 1999, highest first?",
     "SELECT category, revenue FROM (SELECT i.i_category AS category, sum(ss.ss_ext_sales_price) AS revenue, "
     "row_number() OVER (ORDER BY sum(ss.ss_ext_sales_price) DESC) AS rn FROM store_sales ss "
     "JOIN item i ON ss.ss_item_sk = i.i_item_sk JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk "
     "WHERE d.d_year = 1999 GROUP BY i.i_category) t WHERE rn <= 5 ORDER BY rn",
     "SELECT i_category, sum(ss_ext_sales_price) AS rev FROM store_sales JOIN item ON ss_item_sk = i_item_sk "
     "JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 1999 GROUP BY i_category ORDER BY rev DESC LIMIT 5",
     "", True, ""),
    ("d04", DS, "How many catalog orders were shipped in December 2000?",
     "SELECT count(DISTINCT cs.cs_order_number) AS orders FROM catalog_sales cs JOIN date_dim d ON cs.cs_sold_date_sk = d.d_date_sk "
     "WHERE d.d_year = 2000 AND d.d_moy = 12",
     "SELECT count(DISTINCT cs_order_number) FROM catalog_sales JOIN date_dim ON cs_ship_date_sk = d_date_sk "
     "WHERE d_year = 2000 AND d_moy = 12",
     "wrong_date_column", False, "filters on the sold date (cs_sold_date_sk) instead of the ship date"),
    ("d05", DS, "How many different married women bought something in our store in 2002?",
     "SELECT count(DISTINCT CASE WHEN cd.cd_gender = 'F' AND cd.cd_marital_status = 'M' THEN ss.ss_customer_sk END) AS married_women "
     "FROM store_sales ss JOIN customer_demographics cd ON ss.ss_cdemo_sk = cd.cd_demo_sk "
     "JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2002",
     "SELECT count(DISTINCT ss_customer_sk) FROM store_sales JOIN customer_demographics ON ss_cdemo_sk = cd_demo_sk "
     "JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 2002 AND cd_gender = 'F' AND cd_marital_status = 'M'",
     "", False, ""),
    ("d06", DS, "How many web sales lines were sold on weekends in 1999?",
     "SELECT count(*) AS weekend_lines FROM web_sales ws JOIN date_dim d ON ws.ws_sold_date_sk = d.d_date_sk "
     "WHERE d.d_year = 1999 AND d.d_weekend = 'Y' AND d.d_holiday = 'N'",
     "SELECT count(*) FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk WHERE d_year = 1999 AND d_weekend = 'Y'",
     "extra_condition", False, "adds d_holiday = 'N', dropping weekend days that are holidays; nobody asked for it"),
    ("d07", DS, "What was the average store sales price per year from 1999 through 2001?",
     "SELECT d.d_year, avg(ss.ss_sales_price) AS avg_price FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk "
     "GROUP BY d.d_year HAVING d.d_year BETWEEN 1999 AND 2001",
     "SELECT d_year, avg(ss_sales_price) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk "
     "WHERE d_year >= 1999 AND d_year <= 2001 GROUP BY d_year",
     "", False, ""),
    ("d08", DS, "What was the total store net profit from 1999 through 2001?",
     "SELECT sum(ss_net_profit) AS net_profit FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk "
     "WHERE d_year >= 1999 AND d_year < 2001",
     "SELECT sum(ss_net_profit) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year BETWEEN 1999 AND 2001",
     "off_by_one_bound", False, "'through 2001' written as d_year < 2001, losing 2001"),
    ("d09", DS, "Which 3 states have the most customers born before 1950, most first?",
     "SELECT ca.ca_state, count(*) AS customers FROM customer c JOIN customer_address ca ON c.c_current_addr_sk = ca.ca_address_sk "
     "WHERE c.c_birth_year < 1950 GROUP BY ca.ca_state ORDER BY customers DESC, ca.ca_state LIMIT 3",
     "SELECT ca_state, count(*) AS n FROM customer JOIN customer_address ON c_current_addr_sk = ca_address_sk "
     "WHERE c_birth_year < 1950 GROUP BY ca_state ORDER BY n DESC, ca_state LIMIT 3",
     "", True, ""),
    ("d10", DS, "How many store sales were made to customers with a college education?",
     "SELECT count(*) AS sales FROM store_sales ss JOIN customer_demographics cd ON ss.ss_cdemo_sk = cd.cd_demo_sk "
     "WHERE cd.cd_education_status = '4 yr Degree'",
     "SELECT count(*) FROM store_sales JOIN customer_demographics ON ss_cdemo_sk = cd_demo_sk WHERE cd_education_status = 'College'",
     "wrong_stored_value", False, "compares education with '4 yr Degree' instead of the stored 'College'"),
    ("d11", DS, "How many web sales lines in 2002 were sold on a holiday?",
     "SELECT sum(CASE WHEN d.d_holiday = 'Y' THEN 1 ELSE 0 END) AS holiday_lines FROM web_sales ws "
     "JOIN date_dim d ON ws.ws_sold_date_sk = d.d_date_sk WHERE d.d_year = 2002",
     "SELECT count(*) FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk WHERE d_year = 2002 AND d_holiday = 'Y'",
     "", False, ""),
    ("d12", DS, "What was the total wholesale cost of catalog sales in 1999?",
     "SELECT sum(cs.cs_wholesale_cost) AS wholesale_cost FROM catalog_sales cs JOIN date_dim d ON cs.cs_sold_date_sk = d.d_date_sk "
     "WHERE d.d_year = 1999",
     "SELECT sum(cs_ext_wholesale_cost) FROM catalog_sales JOIN date_dim ON cs_sold_date_sk = d_date_sk WHERE d_year = 1999",
     "neighbour_column", False, "sums the unit cs_wholesale_cost instead of the extended cs_ext_wholesale_cost"),
    ("d13", DS, "How many store returns were there in each month of 2001?",
     "WITH r AS (SELECT month(d.d_date) AS m FROM store_returns sr JOIN date_dim d ON sr.sr_returned_date_sk = d.d_date_sk "
     "WHERE year(d.d_date) = 2001) SELECT m AS month, count(*) AS returns FROM r GROUP BY m",
     "SELECT d_moy, count(*) FROM store_returns JOIN date_dim ON sr_returned_date_sk = d_date_sk WHERE d_year = 2001 GROUP BY d_moy",
     "", False, ""),
    ("d14", DS, "How many customers made their first purchase in 2000?",
     "SELECT count(*) AS customers FROM customer c JOIN date_dim d ON c.c_first_shipto_date_sk = d.d_date_sk WHERE d.d_year = 2000",
     "SELECT count(*) FROM customer JOIN date_dim ON c_first_sales_date_sk = d_date_sk WHERE d_year = 2000",
     "wrong_date_column", False, "reads c_first_shipto_date_sk (first ship-to) instead of c_first_sales_date_sk"),
    ("d15", DS, "Which item categories sold more than 1500 units in our store on weekends in 2000?",
     "SELECT i.i_category FROM store_sales ss JOIN item i ON ss.ss_item_sk = i.i_item_sk "
     "JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000 AND d.d_weekend = 'Y' "
     "GROUP BY i.i_category HAVING sum(ss.ss_quantity) > 1500",
     "SELECT cat FROM (SELECT i_category AS cat, sum(ss_quantity) AS q FROM store_sales JOIN item ON ss_item_sk = i_item_sk "
     "JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 2000 AND d_weekend = 'Y' GROUP BY i_category) t WHERE q > 1500",
     "", False, ""),
    ("d16", DS, "How many single men bought something from the catalog in 2001?",
     "SELECT count(DISTINCT cs.cs_bill_customer_sk) AS customers FROM catalog_sales cs "
     "JOIN customer_demographics cd ON cs.cs_bill_cdemo_sk = cd.cd_demo_sk JOIN date_dim d ON cs.cs_sold_date_sk = d.d_date_sk "
     "WHERE d.d_year = 2001 AND cd.cd_gender = 'M'",
     "SELECT count(DISTINCT cs_bill_customer_sk) FROM catalog_sales JOIN customer_demographics ON cs_bill_cdemo_sk = cd_demo_sk "
     "JOIN date_dim ON cs_sold_date_sk = d_date_sk WHERE d_year = 2001 AND cd_gender = 'M' AND cd_marital_status = 'S'",
     "dropped_condition", False, "drops the marital status condition (single)"),
    ("d17", DS, "What was the average net profit per catalog order in 2000?",
     "SELECT sum(cs_net_profit) / count(DISTINCT cs_order_number) AS avg_profit_per_order FROM catalog_sales "
     "WHERE cs_sold_date_sk IN (SELECT d_date_sk FROM date_dim WHERE d_year = 2000)",
     "SELECT avg(p) FROM (SELECT cs_order_number, sum(cs_net_profit) AS p FROM catalog_sales JOIN date_dim ON cs_sold_date_sk = d_date_sk "
     "WHERE d_year = 2000 GROUP BY cs_order_number) t",
     "", False, ""),
    ("d18", DS, "How many different customers bought Books in our store in 2001?",
     "SELECT count(ss.ss_customer_sk) AS customers FROM store_sales ss JOIN item i ON ss.ss_item_sk = i.i_item_sk "
     "JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE i.i_category = 'Books' AND d.d_year = 2001",
     "SELECT count(DISTINCT ss_customer_sk) FROM store_sales JOIN item ON ss_item_sk = i_item_sk "
     "JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE i_category = 'Books' AND d_year = 2001",
     "missing_distinct", False, "counts sales lines, not different customers (no DISTINCT)"),
    ("d19", DS, "Who were the 5 customers that paid the most in our store in 2002? Give first and last name, biggest spender first.",
     "WITH spend AS (SELECT ss_customer_sk, sum(ss_net_paid) AS paid FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk "
     "WHERE d_year = 2002 AND ss_customer_sk IS NOT NULL GROUP BY ss_customer_sk), "
     "ranked AS (SELECT c.c_first_name, c.c_last_name, s.paid, rank() OVER (ORDER BY s.paid DESC) AS r "
     "FROM spend s JOIN customer c ON c.c_customer_sk = s.ss_customer_sk) "
     "SELECT c_first_name, c_last_name, paid FROM ranked WHERE r <= 5 ORDER BY r",
     "SELECT c_first_name, c_last_name, sum(ss_net_paid) AS paid FROM store_sales JOIN customer ON ss_customer_sk = c_customer_sk "
     "JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 2002 GROUP BY c_customer_sk, c_first_name, c_last_name "
     "ORDER BY paid DESC LIMIT 5",
     "", True, ""),
    ("d20", DS, "How many catalog orders in 2000 went out by express shipping?",
     "SELECT count(DISTINCT cs.cs_order_number) AS orders FROM catalog_sales cs JOIN ship_mode sm ON cs.cs_ship_mode_sk = sm.sm_ship_mode_sk "
     "JOIN date_dim d ON cs.cs_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000 AND sm.sm_type = 'EXPRESS' AND sm.sm_code = 'AIR'",
     "SELECT count(DISTINCT cs_order_number) FROM catalog_sales JOIN ship_mode ON cs_ship_mode_sk = sm_ship_mode_sk "
     "JOIN date_dim ON cs_sold_date_sk = d_date_sk WHERE d_year = 2000 AND sm_type = 'EXPRESS'",
     "extra_condition", False, "adds sm_code = 'AIR', which the question never asked"),
    ("d21", DS, "How many customers born in 1980 live in Georgia?",
     "SELECT count(*) AS customers FROM customer WHERE c_birth_year = 1980 AND c_current_addr_sk IN "
     "(SELECT ca_address_sk FROM customer_address WHERE ca_state = 'GA')",
     "SELECT count(*) FROM customer JOIN customer_address ON c_current_addr_sk = ca_address_sk WHERE c_birth_year = 1980 AND ca_state = 'GA'",
     "", False, ""),
    ("d22", DS, "How many web sales lines in 2001 were sold at a discount, below the list price?",
     "SELECT count(*) AS discounted FROM web_sales ws JOIN date_dim d ON ws.ws_sold_date_sk = d.d_date_sk "
     "WHERE d.d_year = 2001 AND ws.ws_list_price < ws.ws_sales_price",
     "SELECT count(*) FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk WHERE d_year = 2001 AND ws_sales_price < ws_list_price",
     "flipped_comparison", False, "compares list price below sales price, the other way round"),
    ("d23", DS, "For each day of the week, how many store sales lines were there in December 2000?",
     "SELECT dayname(d.d_date) AS weekday, count(*) AS lines FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk "
     "WHERE d.d_date BETWEEN DATE '2000-12-01' AND DATE '2000-12-31' GROUP BY dayname(d.d_date)",
     "SELECT d_day_name, count(*) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 2000 AND d_moy = 12 GROUP BY d_day_name",
     "", False, ""),
    ("d24", DS, "What was the web sales revenue in each quarter of 2001?",
     "SELECT d.d_moy, sum(ws.ws_ext_sales_price) AS revenue FROM web_sales ws JOIN date_dim d ON ws.ws_sold_date_sk = d.d_date_sk "
     "WHERE d.d_year = 2001 GROUP BY d.d_moy",
     "SELECT d_qoy, sum(ws_ext_sales_price) FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk WHERE d_year = 2001 GROUP BY d_qoy",
     "wrong_grain", False, "groups by month (d_moy) instead of quarter (d_qoy)"),
    ("d25", DS, "How many customers bought both in our store and on the web in 2001?",
     "SELECT count(*) AS customers FROM (SELECT ss_customer_sk FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk "
     "WHERE d_year = 2001 AND ss_customer_sk IS NOT NULL INTERSECT SELECT ws_bill_customer_sk FROM web_sales "
     "JOIN date_dim ON ws_sold_date_sk = d_date_sk WHERE d_year = 2001) both_channels",
     "SELECT count(DISTINCT ss_customer_sk) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 2001 "
     "AND ss_customer_sk IN (SELECT ws_bill_customer_sk FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk WHERE d_year = 2001)",
     "", False, ""),

    # ---------------- TPC-H ----------------
    ("h01", H, "How many orders did customers in the building segment place in 1995?",
     "WITH b AS (SELECT c_custkey FROM customer WHERE c_mktsegment = 'BUILDING') "
     "SELECT count(*) AS orders FROM orders o JOIN b ON o.o_custkey = b.c_custkey "
     "WHERE o.o_orderdate >= DATE '1995-01-01' AND o.o_orderdate < DATE '1996-01-01'",
     "SELECT count(*) FROM orders JOIN customer ON o_custkey = c_custkey WHERE c_mktsegment = 'BUILDING' AND year(o_orderdate) = 1995",
     "", False, ""),
    ("h02", H, "How many line items were shipped in March 1996?",
     "SELECT count(*) AS line_items FROM lineitem WHERE l_receiptdate >= DATE '1996-03-01' AND l_receiptdate < DATE '1996-04-01'",
     "SELECT count(*) FROM lineitem WHERE l_shipdate BETWEEN DATE '1996-03-01' AND DATE '1996-03-31'",
     "wrong_date_column", False, "filters on the receipt date instead of the ship date"),
    ("h03", H, "Which 3 nations have the highest total customer account balance, highest first?",
     "SELECT n_name, total_balance FROM (SELECT n.n_name, sum(c.c_acctbal) AS total_balance, "
     "dense_rank() OVER (ORDER BY sum(c.c_acctbal) DESC) AS dr FROM customer c JOIN nation n ON c.c_nationkey = n.n_nationkey "
     "GROUP BY n.n_name) x WHERE dr <= 3 ORDER BY total_balance DESC",
     "SELECT n_name, sum(c_acctbal) AS bal FROM customer JOIN nation ON c_nationkey = n_nationkey GROUP BY n_name ORDER BY bal DESC LIMIT 3",
     "", True, ""),
    ("h04", H, "What was the discounted revenue of line items shipped by air in 1997?",
     "SELECT sum(l_extendedprice * (1 - l_discount)) AS revenue FROM lineitem WHERE l_shipmode = 'AIR' "
     "AND l_shipdate >= DATE '1997-01-01' AND l_shipdate < DATE '1998-01-01' AND l_discount > 0",
     "SELECT sum(l_extendedprice * (1 - l_discount)) FROM lineitem WHERE l_shipmode = 'AIR' AND year(l_shipdate) = 1997",
     "extra_condition", False, "adds l_discount > 0, dropping undiscounted lines the question includes"),
    ("h05", H, "What is the average customer account balance in each region?",
     "SELECT r.r_name, (SELECT avg(c.c_acctbal) FROM customer c JOIN nation n ON c.c_nationkey = n.n_nationkey "
     "WHERE n.n_regionkey = r.r_regionkey) AS avg_balance FROM region r",
     "SELECT r_name, avg(c_acctbal) FROM customer JOIN nation ON c_nationkey = n_nationkey JOIN region ON n_regionkey = r_regionkey GROUP BY r_name",
     "", False, ""),
    ("h06", H, "How many urgent orders placed in 1995 are still open?",
     "SELECT count(*) AS open_urgent FROM orders WHERE o_orderpriority = '1-URGENT' "
     "AND o_orderdate BETWEEN DATE '1995-01-01' AND DATE '1995-12-31'",
     "SELECT count(*) FROM orders WHERE o_orderpriority = '1-URGENT' AND year(o_orderdate) = 1995 AND o_orderstatus = 'O'",
     "dropped_condition", False, "drops the open status (o_orderstatus = 'O')"),
    ("h07", H, "How many German suppliers are in the red, with a negative account balance?",
     "SELECT sum(CASE WHEN s.s_acctbal < 0 THEN 1 ELSE 0 END) AS suppliers FROM supplier s "
     "JOIN nation n ON s.s_nationkey = n.n_nationkey WHERE n.n_name = 'GERMANY'",
     "SELECT count(*) FROM supplier JOIN nation ON s_nationkey = n_nationkey WHERE n_name = 'GERMANY' AND s_acctbal < 0",
     "", False, ""),
    ("h08", H, "How many line items were shipped by regular air in 1996?",
     "SELECT count(*) AS line_items FROM lineitem WHERE l_shipmode = 'AIR' AND extract(year FROM l_shipdate) = 1996",
     "SELECT count(*) FROM lineitem WHERE l_shipmode = 'REG AIR' AND year(l_shipdate) = 1996",
     "wrong_stored_value", False, "compares ship mode with 'AIR' instead of the stored 'REG AIR'"),
    ("h09", H, "How many orders were placed per year from 1993 through 1996?",
     "SELECT extract(year FROM o_orderdate) AS yr, count(*) AS orders FROM orders GROUP BY 1 HAVING extract(year FROM o_orderdate) BETWEEN 1993 AND 1996",
     "SELECT year(o_orderdate), count(*) FROM orders WHERE o_orderdate >= DATE '1993-01-01' AND o_orderdate <= DATE '1996-12-31' GROUP BY 1",
     "", False, ""),
    ("h10", H, "What was the total revenue after discount for line items shipped in 1994?",
     "SELECT sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS revenue FROM lineitem "
     "WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate <= DATE '1994-12-31'",
     "SELECT sum(l_extendedprice * (1 - l_discount)) FROM lineitem WHERE year(l_shipdate) = 1994",
     "neighbour_column", False, "multiplies in (1 + l_tax): revenue with tax, not after discount only"),
    ("h11", H, "How many suppliers does each European nation have?",
     "SELECT n.n_name, (SELECT count(*) FROM supplier s WHERE s.s_nationkey = n.n_nationkey) AS suppliers "
     "FROM nation n WHERE n.n_regionkey = (SELECT r_regionkey FROM region WHERE r_name = 'EUROPE')",
     "SELECT n_name, count(s_suppkey) FROM nation JOIN region ON n_regionkey = r_regionkey LEFT JOIN supplier ON s_nationkey = n_nationkey "
     "WHERE r_name = 'EUROPE' GROUP BY n_name",
     "", False, ""),
    ("h12", H, "What was the total quantity of line items shipped in the first quarter of 1995?",
     "SELECT sum(l_quantity) AS qty FROM lineitem WHERE l_shipdate BETWEEN DATE '1995-01-01' AND DATE '1995-04-01'",
     "SELECT sum(l_quantity) FROM lineitem WHERE l_shipdate >= DATE '1995-01-01' AND l_shipdate < DATE '1995-04-01'",
     "off_by_one_bound", False, "BETWEEN ... '1995-04-01' includes April 1st"),
    ("h13", H, "How many customers have never placed an order?",
     "SELECT count(*) AS customers FROM customer c LEFT JOIN orders o ON o.o_custkey = c.c_custkey WHERE o.o_orderkey IS NULL",
     "SELECT count(*) FROM customer WHERE NOT EXISTS (SELECT 1 FROM orders WHERE o_custkey = c_custkey)",
     "", False, ""),
    ("h14", H, "What is the total account balance of customers who placed an order in 1998?",
     "SELECT sum(c.c_acctbal) AS total_balance FROM customer c JOIN orders o ON o.o_custkey = c.c_custkey "
     "WHERE o.o_orderdate >= DATE '1998-01-01' AND o.o_orderdate < DATE '1999-01-01'",
     "SELECT sum(c_acctbal) FROM customer WHERE c_custkey IN (SELECT o_custkey FROM orders WHERE year(o_orderdate) = 1998)",
     "join_inflates", False, "the join to orders repeats each customer once per order, inflating the sum"),
    ("h15", H, "On average, how many line items does an order have?",
     "SELECT avg(l_linenumber) AS avg_lines FROM lineitem",
     "SELECT avg(n) FROM (SELECT l_orderkey, count(*) AS n FROM lineitem GROUP BY l_orderkey) t",
     "wrong_aggregate", False, "averages the line number over lines instead of counting lines per order"),

    # ---------------- SMG_DEMO ----------------
    ("g01", G, "How many returning customers do we have?",
     "SELECT count(*) FILTER (WHERE CUSTOMER_TYPE = 'returning') AS returning_customers FROM SMG_DEMO",
     "SELECT count(*) FROM SMG_DEMO WHERE CUSTOMER_TYPE = 'returning'",
     "", False, ""),
    ("g02", G, "What is the total lifetime spend before tax across all customers?",
     "SELECT sum(LIFETIME_SPEND) AS total_spend FROM SMG_DEMO",
     "SELECT sum(LIFETIME_SPEND_PRETAX) FROM SMG_DEMO",
     "neighbour_column", False, "sums LIFETIME_SPEND (tax included) instead of LIFETIME_SPEND_PRETAX"),
    ("g03", G, "Who are our top 5 customers by lifetime spend, highest first?",
     "SELECT CUSTOMER_NAME, LIFETIME_SPEND FROM (SELECT CUSTOMER_NAME, LIFETIME_SPEND, "
     "row_number() OVER (ORDER BY LIFETIME_SPEND DESC) AS rn FROM SMG_DEMO) t WHERE rn <= 5 ORDER BY rn",
     "SELECT CUSTOMER_NAME, LIFETIME_SPEND FROM SMG_DEMO ORDER BY LIFETIME_SPEND DESC LIMIT 5",
     "", True, ""),
    ("g04", G, "How many customers placed their first order in 2017?",
     "SELECT count(*) AS customers FROM SMG_DEMO WHERE LAST_ORDERED_AT >= DATE '2017-01-01' AND LAST_ORDERED_AT < DATE '2018-01-01'",
     "SELECT count(*) FROM SMG_DEMO WHERE year(FIRST_ORDERED_AT) = 2017",
     "wrong_date_column", False, "reads LAST_ORDERED_AT instead of FIRST_ORDERED_AT"),
    ("g05", G, "How many new customers placed their first order in August 2017?",
     "SELECT count(*) AS customers FROM SMG_DEMO WHERE CUSTOMER_TYPE = 'new' "
     "AND FIRST_ORDERED_AT BETWEEN DATE '2017-08-01' AND DATE '2017-08-31'",
     "SELECT count(*) FROM SMG_DEMO WHERE CUSTOMER_TYPE = 'new' AND year(FIRST_ORDERED_AT) = 2017 AND month(FIRST_ORDERED_AT) = 8",
     "", False, ""),
    ("g06", G, "How many customers have placed more than 100 orders?",
     "SELECT count(*) AS customers FROM SMG_DEMO WHERE COUNT_LIFETIME_ORDERS > 100 AND LIFETIME_SPEND > 1000",
     "SELECT count(*) FROM SMG_DEMO WHERE COUNT_LIFETIME_ORDERS > 100",
     "extra_condition", False, "adds LIFETIME_SPEND > 1000, a threshold nobody asked for"),
    ("g07", G, "How many customers started ordering in each month of 2016?",
     "SELECT date_part('month', FIRST_ORDERED_AT) AS month, count(*) AS customers FROM SMG_DEMO "
     "WHERE FIRST_ORDERED_AT < DATE '2017-01-01' AND FIRST_ORDERED_AT >= DATE '2016-01-01' GROUP BY 1",
     "SELECT month(FIRST_ORDERED_AT), count(*) FROM SMG_DEMO WHERE year(FIRST_ORDERED_AT) = 2016 GROUP BY 1",
     "", False, ""),
    ("g08", G, "How many customers who started in 2016 have spent more than $1,500?",
     "SELECT count(*) AS customers FROM SMG_DEMO WHERE year(FIRST_ORDERED_AT) = 2016",
     "SELECT count(*) FROM SMG_DEMO WHERE year(FIRST_ORDERED_AT) = 2016 AND LIFETIME_SPEND > 1500",
     "dropped_condition", False, "drops the spend condition (more than $1,500)"),
    ("g09", G, "What's the average tax paid by customers with at least 50 orders?",
     "WITH loyal AS (SELECT LIFETIME_TAX_PAID FROM SMG_DEMO WHERE COUNT_LIFETIME_ORDERS >= 50) "
     "SELECT sum(LIFETIME_TAX_PAID) / count(*) AS avg_tax FROM loyal",
     "SELECT avg(LIFETIME_TAX_PAID) FROM SMG_DEMO WHERE COUNT_LIFETIME_ORDERS >= 50",
     "", False, ""),
    ("g10", G, "How many new customers do we have?",
     "SELECT count(*) AS new_customers FROM SMG_DEMO WHERE CUSTOMER_TYPE = 'New'",
     "SELECT count(*) FROM SMG_DEMO WHERE CUSTOMER_TYPE = 'new'",
     "wrong_stored_value", False, "compares with 'New'; the stored value is lower case 'new'"),
    ("g11", G, "Which customer has placed the most orders?",
     "SELECT CUSTOMER_NAME, COUNT_LIFETIME_ORDERS FROM (SELECT CUSTOMER_NAME, COUNT_LIFETIME_ORDERS, "
     "rank() OVER (ORDER BY COUNT_LIFETIME_ORDERS DESC) AS r FROM SMG_DEMO) t WHERE r = 1",
     "SELECT CUSTOMER_NAME, COUNT_LIFETIME_ORDERS FROM SMG_DEMO WHERE COUNT_LIFETIME_ORDERS = (SELECT max(COUNT_LIFETIME_ORDERS) FROM SMG_DEMO)",
     "", False, ""),
    ("g12", G, "How many customers placed their first order from November 1 through December 31, 2016?",
     "SELECT count(*) AS customers FROM SMG_DEMO WHERE FIRST_ORDERED_AT >= DATE '2016-11-01' AND FIRST_ORDERED_AT < DATE '2016-12-31'",
     "SELECT count(*) FROM SMG_DEMO WHERE FIRST_ORDERED_AT BETWEEN DATE '2016-11-01' AND DATE '2016-12-31'",
     "off_by_one_bound", False, "'through December 31' written as < '2016-12-31', losing December 31st"),
    ("g13", G, "How many customers have spent more than $2,000 including tax?",
     "SELECT count(*) AS customers FROM SMG_DEMO WHERE LIFETIME_SPEND_PRETAX + LIFETIME_TAX_PAID > 2000",
     "SELECT count(*) FROM SMG_DEMO WHERE LIFETIME_SPEND > 2000",
     "", False, ""),
    ("g14", G, "Which 5 customers have spent the least over their lifetime, lowest first?",
     "SELECT CUSTOMER_NAME, LIFETIME_SPEND FROM SMG_DEMO ORDER BY LIFETIME_SPEND DESC LIMIT 5",
     "SELECT CUSTOMER_NAME, LIFETIME_SPEND FROM SMG_DEMO ORDER BY LIFETIME_SPEND ASC LIMIT 5",
     "flipped_order", True, "orders descending: the biggest spenders, not the smallest"),
    ("g15", G, "What is the average number of lifetime orders for new versus returning customers?",
     "SELECT 'new' AS customer_type, avg(CASE WHEN CUSTOMER_TYPE = 'new' THEN COUNT_LIFETIME_ORDERS END) AS avg_orders FROM SMG_DEMO "
     "UNION ALL SELECT 'returning', avg(CASE WHEN CUSTOMER_TYPE = 'returning' THEN COUNT_LIFETIME_ORDERS END) FROM SMG_DEMO",
     "SELECT CUSTOMER_TYPE, avg(COUNT_LIFETIME_ORDERS) FROM SMG_DEMO GROUP BY CUSTOMER_TYPE",
     "", False, ""),
    ("g16", G, "How many customers last ordered in August 2017?",
     "SELECT count(*) AS customers FROM SMG_DEMO WHERE LAST_ORDERED_AT BETWEEN DATE '2017-08-01' AND DATE '2017-08-31' "
     "AND CUSTOMER_TYPE = 'returning'",
     "SELECT count(*) FROM SMG_DEMO WHERE year(LAST_ORDERED_AT) = 2017 AND month(LAST_ORDERED_AT) = 8",
     "extra_condition", False, "adds CUSTOMER_TYPE = 'returning', which the question never asked"),
    ("g17", G, "How many of our customers are named Michael?",
     "SELECT count(*) AS customers FROM SMG_DEMO WHERE CUSTOMER_NAME LIKE 'Michael %'",
     "SELECT count(*) FROM SMG_DEMO WHERE split_part(CUSTOMER_NAME, ' ', 1) = 'Michael'",
     "", False, ""),
    ("g18", G, "How many different customer names are there?",
     "SELECT count(CUSTOMER_NAME) AS names FROM SMG_DEMO",
     "SELECT count(DISTINCT CUSTOMER_NAME) FROM SMG_DEMO",
     "missing_distinct", False, "counts rows, not different names (no DISTINCT)"),
    ("g19", G, "What percentage of all lifetime spend went to tax?",
     "WITH t AS (SELECT sum(LIFETIME_TAX_PAID) AS tax, sum(LIFETIME_SPEND_PRETAX + LIFETIME_TAX_PAID) AS total FROM SMG_DEMO) "
     "SELECT round(100.0 * tax / total, 4) AS pct_tax FROM t",
     "SELECT round(100.0 * sum(LIFETIME_TAX_PAID) / sum(LIFETIME_SPEND), 4) FROM SMG_DEMO",
     "", False, ""),
    ("g20", G, "What is the median lifetime spend of returning customers?",
     "SELECT avg(LIFETIME_SPEND) AS median_spend FROM SMG_DEMO WHERE CUSTOMER_TYPE = 'returning'",
     "SELECT median(LIFETIME_SPEND) FROM SMG_DEMO WHERE CUSTOMER_TYPE = 'returning'",
     "wrong_aggregate", False, "takes the mean (avg) instead of the median"),
]
