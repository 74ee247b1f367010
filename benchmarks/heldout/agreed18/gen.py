import json, random
DS, H = "{tpcds}", "{tpch}"
CAR = "../shared/data/spider-slice/database/car_1/car_1.sqlite"
CON = "../shared/data/spider-slice/database/concert_singer/concert_singer.sqlite"
PET = "../shared/data/spider-slice/database/pets_1/pets_1.sqlite"
# (db, question, sql, gold, kind, ordered, why)  kind "" = right
R = []
def add(db, q, sql, gold, kind="", ordered=False, why=""):
    R.append(dict(db=db, q=q, sql=sql, gold=gold, kind=kind, ordered=ordered, why=why))

# ---------------- TPC-DS ----------------
add(DS, "What was the total quantity sold in our stores on Saturdays and Sundays during 2000?",
 "SELECT SUM(ss.ss_quantity) AS total_quantity FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000 AND d.d_day_name IN ('Saturday', 'Sunday')",
 "SELECT sum(ss_quantity) FROM store_sales, date_dim WHERE ss_sold_date_sk = d_date_sk AND d_year = 2000 AND (d_day_name = 'Saturday' OR d_day_name = 'Sunday')")
add(DS, "How much did customers pay in total for store purchases in the second quarter of 2001?",
 "SELECT SUM(ss.ss_net_paid) AS total_net_paid FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2001 AND d.d_moy BETWEEN 3 AND 5",
 "SELECT sum(ss_net_paid) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 2001 AND d_qoy = 2",
 "wrong_year_month", False, "second quarter is April-June; the SQL takes March-May")
add(DS, "What were the top 5 item categories by catalog sales revenue in 1999, highest first?",
 "SELECT i.i_category, SUM(cs.cs_ext_sales_price) AS revenue FROM catalog_sales cs JOIN item i ON cs.cs_item_sk = i.i_item_sk JOIN date_dim d ON cs.cs_sold_date_sk = d.d_date_sk WHERE d.d_year = 1999 GROUP BY i.i_category ORDER BY revenue DESC LIMIT 5",
 "SELECT i_category, sum(cs_ext_sales_price) AS rev FROM catalog_sales JOIN item ON cs_item_sk = i_item_sk JOIN date_dim ON cs_sold_date_sk = d_date_sk WHERE d_year = 1999 GROUP BY i_category ORDER BY rev DESC LIMIT 5", ordered=True)
add(DS, "What was our total net profit from web sales in 2002?",
 "SELECT SUM(ws.ws_net_paid) AS total_net_profit FROM web_sales ws JOIN date_dim d ON ws.ws_sold_date_sk = d.d_date_sk WHERE d.d_year = 2002",
 "SELECT sum(ws_net_profit) FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk WHERE d_year = 2002",
 "wrong_column", False, "sums net paid instead of net profit")
add(DS, "How many of our customers are women with a college education?",
 "SELECT COUNT(*) AS num_customers FROM customer c JOIN customer_demographics cd ON c.c_current_cdemo_sk = cd.cd_demo_sk WHERE cd.cd_gender = 'F' AND cd.cd_education_status = 'College'",
 "SELECT count(c_customer_sk) FROM customer, customer_demographics WHERE c_current_cdemo_sk = cd_demo_sk AND cd_gender = 'F' AND cd_education_status = 'College'")
add(DS, "How many customers are widowed men?",
 "SELECT COUNT(*) AS num_customers FROM customer c JOIN customer_demographics cd ON c.c_current_cdemo_sk = cd.cd_demo_sk WHERE cd.cd_gender = 'M' AND cd.cd_marital_status = 'D'",
 "SELECT count(*) FROM customer JOIN customer_demographics ON c_current_cdemo_sk = cd_demo_sk WHERE cd_gender = 'M' AND cd_marital_status = 'W'",
 "wrong_flag_value", False, "marital status 'D' is divorced; widowed is 'W'")
add(DS, "What was the average catalog sales price per year from 1998 through 2001?",
 "SELECT d.d_year, AVG(cs.cs_sales_price) AS avg_sales_price FROM catalog_sales cs JOIN date_dim d ON cs.cs_sold_date_sk = d.d_date_sk WHERE d.d_year BETWEEN 1998 AND 2001 GROUP BY d.d_year ORDER BY d.d_year",
 "SELECT d_year, avg(cs_sales_price) FROM catalog_sales JOIN date_dim ON cs_sold_date_sk = d_date_sk WHERE d_year >= 1998 AND d_year <= 2001 GROUP BY d_year")
add(DS, "What is the total amount paid in store purchases by customers who have returned something to a store?",
 "SELECT SUM(ss.ss_net_paid) AS total_paid FROM store_sales ss JOIN store_returns sr ON ss.ss_customer_sk = sr.sr_customer_sk",
 "SELECT sum(ss_net_paid) FROM store_sales WHERE ss_customer_sk IN (SELECT sr_customer_sk FROM store_returns)",
 "join_inflation", False, "joining returns on customer repeats each sale once per return of that customer")
add(DS, "Which 3 states have the most customers living in them?",
 "SELECT ca.ca_state, COUNT(*) AS num_customers FROM customer c JOIN customer_address ca ON c.c_current_addr_sk = ca.ca_address_sk GROUP BY ca.ca_state ORDER BY num_customers DESC LIMIT 3",
 "SELECT ca_state, count(c_customer_sk) AS n FROM customer JOIN customer_address ON c_current_addr_sk = ca_address_sk GROUP BY ca_state ORDER BY n DESC LIMIT 3")
add(DS, "How many catalog sales in 2000 were shipped by overnight delivery?",
 "SELECT COUNT(*) AS num_sales FROM catalog_sales cs JOIN ship_mode sm ON cs.cs_ship_mode_sk = sm.sm_ship_mode_sk WHERE sm.sm_type = 'OVERNIGHT'",
 "SELECT count(*) FROM catalog_sales JOIN ship_mode ON cs_ship_mode_sk = sm_ship_mode_sk JOIN date_dim ON cs_sold_date_sk = d_date_sk WHERE sm_type = 'OVERNIGHT' AND d_year = 2000",
 "lost_condition", False, "drops the year 2000 condition")
add(DS, "Show web sales revenue by month for 2001.",
 "SELECT d.d_moy AS month, SUM(ws.ws_ext_sales_price) AS revenue FROM web_sales ws JOIN date_dim d ON ws.ws_sold_date_sk = d.d_date_sk WHERE d.d_year = 2001 GROUP BY d.d_moy ORDER BY d.d_moy",
 "SELECT d_moy, sum(ws_ext_sales_price) FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk WHERE d_year = 2001 GROUP BY d_moy")
add(DS, "What was the total net paid in store sales from January 1 through March 31, 2000?",
 "SELECT SUM(ss.ss_net_paid) AS total_net_paid FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_date >= DATE '2000-01-01' AND d.d_date < DATE '2000-03-31'",
 "SELECT sum(ss_net_paid) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_date BETWEEN DATE '2000-01-01' AND DATE '2000-03-31'",
 "off_by_one_bound", False, "excludes March 31 although the question says through March 31")
add(DS, "How many different items were sold online on holidays in 1999?",
 "SELECT COUNT(DISTINCT ws.ws_item_sk) AS num_items FROM web_sales ws JOIN date_dim d ON ws.ws_sold_date_sk = d.d_date_sk WHERE d.d_year = 1999 AND d.d_holiday = 'Y'",
 "SELECT count(DISTINCT ws_item_sk) FROM web_sales, date_dim WHERE ws_sold_date_sk = d_date_sk AND d_year = 1999 AND d_holiday = 'Y'")
add(DS, "How many different customers bought something in a store in 2002?",
 "SELECT COUNT(ss.ss_customer_sk) AS num_customers FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2002",
 "SELECT count(DISTINCT ss_customer_sk) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 2002",
 "missing_distinct", False, "counts sale lines, not distinct customers")
add(DS, "Who were the top 10 customers by total store spending in 2001? Show their first and last names, biggest spender first.",
 "SELECT c.c_first_name, c.c_last_name, SUM(ss.ss_net_paid) AS total_spent FROM store_sales ss JOIN customer c ON ss.ss_customer_sk = c.c_customer_sk JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2001 GROUP BY c.c_customer_sk, c.c_first_name, c.c_last_name ORDER BY total_spent DESC LIMIT 10",
 "SELECT c_first_name, c_last_name, sum(ss_net_paid) AS s FROM store_sales JOIN customer ON ss_customer_sk = c_customer_sk JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 2001 GROUP BY c_customer_sk, c_first_name, c_last_name ORDER BY s DESC LIMIT 10", ordered=True)
add(DS, "How many units were returned by web customers in 2000?",
 "SELECT SUM(cr.cr_return_quantity) AS units_returned FROM catalog_returns cr JOIN date_dim d ON cr.cr_returned_date_sk = d.d_date_sk WHERE d.d_year = 2000",
 "SELECT sum(wr_return_quantity) FROM web_returns JOIN date_dim ON wr_returned_date_sk = d_date_sk WHERE d_year = 2000",
 "wrong_table", False, "reads catalog returns instead of web returns")
add(DS, "What is the average current price of items in the Jewelry category?",
 "SELECT AVG(i_current_price) AS avg_price FROM item WHERE i_category = 'Jewelry'",
 "SELECT avg(i_current_price) FROM item WHERE i_category = 'Jewelry'")
add(DS, "On average, how much net profit did a store ticket bring in during 2000?",
 "SELECT AVG(ss.ss_net_profit) AS avg_net_profit FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000",
 "SELECT avg(p) FROM (SELECT ss_ticket_number, sum(ss_net_profit) AS p FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 2000 GROUP BY ss_ticket_number) t",
 "wrong_aggregate", False, "averages per sale line, not per ticket")
add(DS, "How many customers were born in the 1970s?",
 "SELECT COUNT(*) AS num_customers FROM customer WHERE c_birth_year >= 1970 AND c_birth_year < 1980",
 "SELECT count(*) FROM customer WHERE c_birth_year BETWEEN 1970 AND 1979")
add(DS, "How many items currently cost less than $5?",
 "SELECT COUNT(*) AS num_items FROM item WHERE i_current_price > 5",
 "SELECT count(*) FROM item WHERE i_current_price < 5",
 "flipped_comparison", False, "comparison flipped: more than $5 instead of less")
add(DS, "For each year, how many different customers bought something on the web?",
 "SELECT d.d_year, COUNT(DISTINCT ws.ws_bill_customer_sk) AS num_customers FROM web_sales ws JOIN date_dim d ON ws.ws_sold_date_sk = d.d_date_sk GROUP BY d.d_year ORDER BY d.d_year",
 "SELECT d_year, count(DISTINCT ws_bill_customer_sk) FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk GROUP BY d_year")
add(DS, "How much did each item class bring in from store sales in 2000?",
 "SELECT i.i_category, SUM(ss.ss_ext_sales_price) AS revenue FROM store_sales ss JOIN item i ON ss.ss_item_sk = i.i_item_sk JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000 GROUP BY i.i_category ORDER BY revenue DESC",
 "SELECT i_class, sum(ss_ext_sales_price) FROM store_sales JOIN item ON ss_item_sk = i_item_sk JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 2000 GROUP BY i_class",
 "wrong_grouping_grain", False, "groups by category instead of item class")
add(DS, "Which day of the week had the highest store sales quantity in 2001?",
 "SELECT d.d_day_name, SUM(ss.ss_quantity) AS total_quantity FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2001 GROUP BY d.d_day_name ORDER BY total_quantity DESC LIMIT 1",
 "SELECT d_day_name, sum(ss_quantity) AS q FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 2001 GROUP BY d_day_name ORDER BY q DESC LIMIT 1")
add(DS, "How many customers live in Georgia?",
 "SELECT COUNT(*) AS num_customers FROM customer c JOIN customer_address ca ON c.c_current_addr_sk = ca.ca_address_sk WHERE ca.ca_state = 'Georgia'",
 "SELECT count(*) FROM customer JOIN customer_address ON c_current_addr_sk = ca_address_sk WHERE ca_state = 'GA'",
 "wrong_literal_case", False, "states are stored as two-letter codes ('GA')")
add(DS, "How many of our customers are preferred customers?",
 "SELECT COUNT(*) AS num_preferred FROM customer WHERE c_preferred_cust_flag = 'Y'",
 "SELECT count(c_customer_sk) FROM customer WHERE c_preferred_cust_flag = 'Y'")
add(DS, "What was the web sales revenue for orders placed in 2000?",
 "SELECT SUM(ws.ws_ext_sales_price) AS revenue FROM web_sales ws JOIN date_dim d ON ws.ws_ship_date_sk = d.d_date_sk WHERE d.d_year = 2000",
 "SELECT sum(ws_ext_sales_price) FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk WHERE d_year = 2000",
 "wrong_join_key", False, "joins the date on the ship date, not the order (sold) date")
add(DS, "How many households have a buying potential above 10,000?",
 "SELECT COUNT(*) AS num_households FROM household_demographics WHERE hd_buy_potential = '>10000'",
 "SELECT count(*) FROM household_demographics WHERE hd_buy_potential = '>10000'")
add(DS, "How many customers bought both in a store and on the web in 2001?",
 "SELECT COUNT(DISTINCT customer_sk) AS num_customers FROM (SELECT ss.ss_customer_sk AS customer_sk FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2001 UNION SELECT ws.ws_bill_customer_sk FROM web_sales ws JOIN date_dim d ON ws.ws_sold_date_sk = d.d_date_sk WHERE d.d_year = 2001) t",
 "SELECT count(*) FROM (SELECT ss_customer_sk FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 2001 AND ss_customer_sk IS NOT NULL INTERSECT SELECT ws_bill_customer_sk FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk WHERE d_year = 2001) t",
 "different_question", False, "UNION counts customers who bought in either channel, not both")
add(DS, "Show the net loss from store returns for each month of 2000.",
 "SELECT d.d_moy AS month, SUM(sr.sr_net_loss) AS net_loss FROM store_returns sr JOIN date_dim d ON sr.sr_returned_date_sk = d.d_date_sk WHERE d.d_year = 2000 GROUP BY d.d_moy ORDER BY d.d_moy",
 "SELECT d_moy, sum(sr_net_loss) FROM store_returns JOIN date_dim ON sr_returned_date_sk = d_date_sk WHERE d_year = 2000 GROUP BY d_moy")
add(DS, "Which 5 items had the lowest web sales revenue in 2001? List the worst first.",
 "SELECT i.i_item_id, SUM(ws.ws_ext_sales_price) AS revenue FROM web_sales ws JOIN item i ON ws.ws_item_sk = i.i_item_sk JOIN date_dim d ON ws.ws_sold_date_sk = d.d_date_sk WHERE d.d_year = 2001 GROUP BY i.i_item_id ORDER BY revenue DESC LIMIT 5",
 "SELECT i_item_id, sum(ws_ext_sales_price) AS r FROM web_sales JOIN item ON ws_item_sk = i_item_sk JOIN date_dim ON ws_sold_date_sk = d_date_sk WHERE d_year = 2001 GROUP BY i_item_id ORDER BY r ASC LIMIT 5",
 "wrong_order", True, "sorts descending, returning the best sellers instead of the worst")
add(DS, "How many catalog sales were billed to customers who are not married?",
 "SELECT COUNT(*) AS num_sales FROM catalog_sales cs JOIN customer_demographics cd ON cs.cs_bill_cdemo_sk = cd.cd_demo_sk WHERE cd.cd_marital_status <> 'M'",
 "SELECT count(*) FROM catalog_sales, customer_demographics WHERE cs_bill_cdemo_sk = cd_demo_sk AND cd_marital_status IN ('S', 'D', 'W', 'U')")
add(DS, "What was the average web sales price of women's items in 2000?",
 "SELECT AVG(ws.ws_sales_price) AS avg_price FROM web_sales ws JOIN item i ON ws.ws_item_sk = i.i_item_sk WHERE i.i_category = 'Women'",
 "SELECT avg(ws_sales_price) FROM web_sales JOIN item ON ws_item_sk = i_item_sk JOIN date_dim ON ws_sold_date_sk = d_date_sk WHERE i_category = 'Women' AND d_year = 2000",
 "lost_condition", False, "drops the year 2000 condition")
add(DS, "In which month of 2000 did we sell the most units through the catalog?",
 "SELECT d.d_moy AS month, SUM(cs.cs_quantity) AS units FROM catalog_sales cs JOIN date_dim d ON cs.cs_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000 GROUP BY d.d_moy ORDER BY units DESC LIMIT 1",
 "SELECT d_moy, sum(cs_quantity) AS u FROM catalog_sales JOIN date_dim ON cs_sold_date_sk = d_date_sk WHERE d_year = 2000 GROUP BY d_moy ORDER BY u DESC LIMIT 1")
add(DS, "How many different items were sold in stores in December 1999?",
 "SELECT COUNT(ss.ss_item_sk) AS num_items FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 1999 AND d.d_moy = 12",
 "SELECT count(DISTINCT ss_item_sk) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 1999 AND d_moy = 12",
 "missing_distinct", False, "counts sale lines instead of distinct items")
add(DS, "How many store tickets were rung up before noon in 2000?",
 "SELECT COUNT(DISTINCT ss.ss_ticket_number) AS num_tickets FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk JOIN time_dim t ON ss.ss_sold_time_sk = t.t_time_sk WHERE d.d_year = 2000 AND t.t_hour < 12",
 "SELECT count(DISTINCT ss_ticket_number) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk JOIN time_dim ON ss_sold_time_sk = t_time_sk WHERE d_year = 2000 AND t_am_pm = 'AM'")
add(DS, "How many customers were born from 1980 through 1985?",
 "SELECT COUNT(*) AS num_customers FROM customer WHERE c_birth_year >= 1980 AND c_birth_year < 1985",
 "SELECT count(*) FROM customer WHERE c_birth_year BETWEEN 1980 AND 1985",
 "off_by_one_bound", False, "excludes 1985 although the question says through 1985")
add(DS, "How many store returns were there each year?",
 "SELECT d.d_year, COUNT(*) AS num_returns FROM store_returns sr JOIN date_dim d ON sr.sr_returned_date_sk = d.d_date_sk GROUP BY d.d_year ORDER BY d.d_year",
 "SELECT d_year, count(*) FROM store_returns JOIN date_dim ON sr_returned_date_sk = d_date_sk GROUP BY d_year")
add(DS, "What was the total coupon amount used on catalog sales in 2000?",
 "SELECT SUM(cs.cs_ext_discount_amt) AS total_coupons FROM catalog_sales cs JOIN date_dim d ON cs.cs_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000",
 "SELECT sum(cs_coupon_amt) FROM catalog_sales JOIN date_dim ON cs_sold_date_sk = d_date_sk WHERE d_year = 2000",
 "wrong_column", False, "sums the extended discount amount instead of the coupon amount")
add(DS, "How many customers were born in Brazil?",
 "SELECT COUNT(*) AS num_customers FROM customer WHERE c_birth_country = 'BRAZIL'",
 "SELECT count(*) FROM customer WHERE upper(c_birth_country) = 'BRAZIL'")
add(DS, "How many web sales in 2001 happened on holidays?",
 "SELECT COUNT(*) AS num_sales FROM web_sales ws JOIN date_dim d ON ws.ws_sold_date_sk = d.d_date_sk WHERE d.d_year = 2001 AND d.d_holiday = 'N'",
 "SELECT count(*) FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk WHERE d_year = 2001 AND d_holiday = 'Y'",
 "wrong_flag_value", False, "holiday flag 'N' selects non-holidays")

# ---------------- TPC-H ----------------
add(H, "How many orders were placed in 1995?",
 "SELECT COUNT(*) AS num_orders FROM orders WHERE o_orderdate >= DATE '1995-01-01' AND o_orderdate < DATE '1996-01-01'",
 "SELECT count(*) FROM orders WHERE year(o_orderdate) = 1995")
add(H, "How many orders were placed in the last quarter of 1997?",
 "SELECT COUNT(*) AS num_orders FROM orders WHERE o_orderdate BETWEEN DATE '1997-09-01' AND DATE '1997-12-31'",
 "SELECT count(*) FROM orders WHERE o_orderdate BETWEEN DATE '1997-10-01' AND DATE '1997-12-31'",
 "wrong_year_month", False, "the last quarter starts in October; the SQL starts in September")
add(H, "Who were the top 5 customers by total order value in 1996? Give their names, largest first.",
 "SELECT c.c_name, SUM(o.o_totalprice) AS total_value FROM customer c JOIN orders o ON c.c_custkey = o.o_custkey WHERE o.o_orderdate >= DATE '1996-01-01' AND o.o_orderdate < DATE '1997-01-01' GROUP BY c.c_name ORDER BY total_value DESC LIMIT 5",
 "SELECT c_name, sum(o_totalprice) AS t FROM customer JOIN orders ON c_custkey = o_custkey WHERE year(o_orderdate) = 1996 GROUP BY c_custkey, c_name ORDER BY t DESC LIMIT 5", ordered=True)
add(H, "How many suppliers are there in each region?",
 "SELECT r.r_name, COUNT(*) AS num_suppliers FROM supplier s JOIN nation n ON s.s_nationkey = n.n_nationkey JOIN region r ON n.n_nationkey = r.r_regionkey GROUP BY r.r_name ORDER BY r.r_name",
 "SELECT r_name, count(*) FROM supplier JOIN nation ON s_nationkey = n_nationkey JOIN region ON n_regionkey = r_regionkey GROUP BY r_name",
 "wrong_join_key", False, "joins region on the nation key instead of n_regionkey")
add(H, "How many urgent orders are still open?",
 "SELECT COUNT(*) AS num_orders FROM orders WHERE o_orderpriority = '1-URGENT' AND o_orderstatus = 'O'",
 "SELECT count(*) FROM orders WHERE o_orderpriority LIKE '1-%' AND o_orderstatus = 'O'")
add(H, "How many customers are in the automobile market segment?",
 "SELECT COUNT(*) AS num_customers FROM customer WHERE c_mktsegment = 'Automobile'",
 "SELECT count(*) FROM customer WHERE c_mktsegment = 'AUTOMOBILE'",
 "wrong_literal_case", False, "segments are stored in upper case ('AUTOMOBILE')")
add(H, "What is the average account balance of customers in each European nation?",
 "SELECT n.n_name, AVG(c.c_acctbal) AS avg_balance FROM customer c JOIN nation n ON c.c_nationkey = n.n_nationkey JOIN region r ON n.n_regionkey = r.r_regionkey WHERE r.r_name = 'EUROPE' GROUP BY n.n_name ORDER BY n.n_name",
 "SELECT n_name, avg(c_acctbal) FROM customer, nation, region WHERE c_nationkey = n_nationkey AND n_regionkey = r_regionkey AND r_name = 'EUROPE' GROUP BY n_name")
add(H, "How many line items were shipped by air in 1997?",
 "SELECT SUM(l_quantity) AS num_items FROM lineitem WHERE l_shipmode = 'AIR' AND l_shipdate >= DATE '1997-01-01' AND l_shipdate < DATE '1998-01-01'",
 "SELECT count(*) FROM lineitem WHERE l_shipmode = 'AIR' AND year(l_shipdate) = 1997",
 "wrong_aggregate", False, "sums quantities instead of counting line items")
add(H, "For each ship mode, how many line items shipped in 1995 arrived after their commit date?",
 "SELECT l_shipmode, COUNT(*) AS late_items FROM lineitem WHERE l_receiptdate > l_commitdate AND l_shipdate BETWEEN DATE '1995-01-01' AND DATE '1995-12-31' GROUP BY l_shipmode ORDER BY l_shipmode",
 "SELECT l_shipmode, count(*) FROM lineitem WHERE year(l_shipdate) = 1995 AND l_commitdate < l_receiptdate GROUP BY l_shipmode")
add(H, "How many line items shipped in 1996 were received after their commit date?",
 "SELECT COUNT(*) AS late_items FROM lineitem WHERE l_receiptdate < l_commitdate AND l_shipdate >= DATE '1996-01-01' AND l_shipdate < DATE '1997-01-01'",
 "SELECT count(*) FROM lineitem WHERE l_receiptdate > l_commitdate AND year(l_shipdate) = 1996",
 "flipped_comparison", False, "comparison flipped: received before the commit date")
add(H, "What was the total quantity of returned line items for each ship year?",
 "SELECT EXTRACT(YEAR FROM l_shipdate) AS ship_year, SUM(l_quantity) AS returned_quantity FROM lineitem WHERE l_returnflag = 'R' GROUP BY ship_year ORDER BY ship_year",
 "SELECT year(l_shipdate), sum(l_quantity) FROM lineitem WHERE l_returnflag = 'R' GROUP BY 1")
add(H, "What is the total account balance of the customers who placed an order in 1995?",
 "SELECT SUM(c.c_acctbal) AS total_balance FROM customer c JOIN orders o ON c.c_custkey = o.o_custkey WHERE o.o_orderdate BETWEEN DATE '1995-01-01' AND DATE '1995-12-31'",
 "SELECT sum(c_acctbal) FROM customer WHERE c_custkey IN (SELECT o_custkey FROM orders WHERE year(o_orderdate) = 1995)",
 "join_inflation", False, "the join counts a customer's balance once per order")
add(H, "Which nations have more than 5 suppliers?",
 "SELECT n.n_name, COUNT(*) AS num_suppliers FROM supplier s JOIN nation n ON s.s_nationkey = n.n_nationkey GROUP BY n.n_name HAVING COUNT(*) > 5",
 "SELECT n_name, count(s_suppkey) FROM nation JOIN supplier ON s_nationkey = n_nationkey GROUP BY n_name HAVING count(s_suppkey) > 5")
add(H, "What was the total revenue from Asian customers in 1995?",
 "SELECT SUM(l.l_extendedprice * (1 - l.l_discount)) AS revenue FROM lineitem l JOIN orders o ON l.l_orderkey = o.o_orderkey JOIN supplier s ON l.l_suppkey = s.s_suppkey JOIN nation n ON s.s_nationkey = n.n_nationkey JOIN region r ON n.n_regionkey = r.r_regionkey WHERE r.r_name = 'ASIA' AND o.o_orderdate >= DATE '1995-01-01' AND o.o_orderdate < DATE '1996-01-01'",
 "SELECT sum(l_extendedprice * (1 - l_discount)) FROM lineitem JOIN orders ON l_orderkey = o_orderkey JOIN customer ON o_custkey = c_custkey JOIN nation ON c_nationkey = n_nationkey JOIN region ON n_regionkey = r_regionkey WHERE r_name = 'ASIA' AND year(o_orderdate) = 1995",
 "wrong_table", False, "takes the region from the supplier instead of the customer")
add(H, "How many orders were placed each month in 1997?",
 "SELECT EXTRACT(MONTH FROM o_orderdate) AS month, COUNT(*) AS num_orders FROM orders WHERE EXTRACT(YEAR FROM o_orderdate) = 1997 GROUP BY month ORDER BY month",
 "SELECT month(o_orderdate), count(*) FROM orders WHERE o_orderdate >= DATE '1997-01-01' AND o_orderdate < DATE '1998-01-01' GROUP BY 1")
add(H, "What was the total order value by order priority for each year?",
 "SELECT o_orderpriority, SUM(o_totalprice) AS total_value FROM orders GROUP BY o_orderpriority ORDER BY o_orderpriority",
 "SELECT year(o_orderdate), o_orderpriority, sum(o_totalprice) FROM orders GROUP BY 1, 2",
 "wrong_grouping_grain", False, "groups by priority only, dropping the per-year breakdown")
add(H, "Which supplier in Africa has the highest account balance?",
 "SELECT s.s_name, s.s_acctbal FROM supplier s JOIN nation n ON s.s_nationkey = n.n_nationkey JOIN region r ON n.n_regionkey = r.r_regionkey WHERE r.r_name = 'AFRICA' ORDER BY s.s_acctbal DESC LIMIT 1",
 "SELECT s_name, s_acctbal FROM supplier JOIN nation ON s_nationkey = n_nationkey JOIN region ON n_regionkey = r_regionkey WHERE r_name = 'AFRICA' AND s_acctbal = (SELECT max(s_acctbal) FROM supplier JOIN nation ON s_nationkey = n_nationkey JOIN region ON n_regionkey = r_regionkey WHERE r_name = 'AFRICA')")
add(H, "List the five cheapest parts by retail price, cheapest first.",
 "SELECT p_name, p_retailprice FROM part ORDER BY p_retailprice DESC LIMIT 5",
 "SELECT p_name, p_retailprice FROM part ORDER BY p_retailprice ASC LIMIT 5",
 "wrong_order", True, "sorts descending, returning the most expensive parts")
add(H, "How many line items shipped by truck in 1994 had a discount of at least 5%?",
 "SELECT COUNT(*) AS num_items FROM lineitem WHERE l_discount >= 0.05 AND l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'",
 "SELECT count(*) FROM lineitem WHERE l_shipmode = 'TRUCK' AND l_discount >= 0.05 AND year(l_shipdate) = 1994",
 "lost_condition", False, "drops the truck ship mode condition")
add(H, "On average, how many days passed between ordering and shipping for orders placed in 1993?",
 "SELECT AVG(l.l_shipdate - o.o_orderdate) AS avg_days FROM lineitem l JOIN orders o ON l.l_orderkey = o.o_orderkey WHERE o.o_orderdate >= DATE '1993-01-01' AND o.o_orderdate < DATE '1994-01-01'",
 "SELECT avg(date_diff('day', o_orderdate, l_shipdate)) FROM orders JOIN lineitem ON l_orderkey = o_orderkey WHERE year(o_orderdate) = 1993")

# ---------------- Spider ----------------
add(CAR, "Which car makers are from Japan? Give their full names.",
 "SELECT cm.FullName FROM car_makers cm JOIN countries c ON cm.Country = c.CountryId WHERE c.CountryName = 'japan'",
 "SELECT FullName FROM car_makers WHERE Country IN (SELECT CountryId FROM countries WHERE CountryName = 'japan')")
add(CAR, "How many car makers are based in Germany?",
 "SELECT COUNT(*) FROM car_makers cm JOIN countries c ON cm.Country = c.CountryId WHERE c.CountryName = 'Germany'",
 "SELECT count(*) FROM car_makers JOIN countries ON car_makers.Country = countries.CountryId WHERE countries.CountryName = 'germany'",
 "wrong_literal_case", False, "country names are stored in lower case ('germany')")
add(CAR, "What is the average horsepower of cars with 4 cylinders?",
 "SELECT AVG(CAST(Horsepower AS REAL)) FROM cars_data WHERE Cylinders = 4 AND Horsepower <> 'null'",
 "SELECT avg(Horsepower + 0.0) FROM cars_data WHERE Cylinders = 4 AND Horsepower != 'null'")
add(CAR, "How many cars weigh less than 3000 and were made after 1975?",
 "SELECT COUNT(*) FROM cars_data WHERE Weight > 3000 AND Year > 1975",
 "SELECT count(*) FROM cars_data WHERE Weight < 3000 AND Year > 1975",
 "flipped_comparison", False, "weight comparison flipped")
add(CAR, "How many cars were made each year from 1970 through 1975?",
 "SELECT Year, COUNT(*) FROM cars_data WHERE Year BETWEEN 1970 AND 1975 GROUP BY Year ORDER BY Year",
 "SELECT Year, count(Id) FROM cars_data WHERE Year >= 1970 AND Year <= 1975 GROUP BY Year")
add(CAR, "How many car makers are there on each continent?",
 "SELECT co.Continent, COUNT(*) FROM continents co JOIN countries c ON co.ContId = c.Continent JOIN car_makers cm ON cm.Country = c.CountryId JOIN model_list ml ON ml.Maker = cm.Id GROUP BY co.Continent",
 "SELECT continents.Continent, count(*) FROM continents JOIN countries ON ContId = countries.Continent JOIN car_makers ON car_makers.Country = CountryId GROUP BY continents.Continent",
 "join_inflation", False, "joining model_list counts models, not makers")
add(CAR, "How many countries have no car makers?",
 "SELECT COUNT(*) FROM countries WHERE CountryId NOT IN (SELECT Country FROM car_makers)",
 "SELECT count(*) FROM countries c WHERE NOT EXISTS (SELECT 1 FROM car_makers m WHERE m.Country = c.CountryId)")
add(CON, "How many concerts were held in 2014 or 2015?",
 "SELECT COUNT(*) FROM concert WHERE Year = '2014' OR Year = '2015'",
 "SELECT count(*) FROM concert WHERE Year IN ('2014', '2015')")
add(CON, "How many female singers are there?",
 "SELECT COUNT(*) FROM singer WHERE Is_male = 'T'",
 "SELECT count(*) FROM singer WHERE Is_male = 'F'",
 "wrong_flag_value", False, "Is_male = 'T' counts men")
add(CON, "What is the name of the stadium with the largest capacity?",
 "SELECT Name FROM stadium ORDER BY Capacity DESC LIMIT 1",
 "SELECT Name FROM stadium WHERE Capacity = (SELECT max(Capacity) FROM stadium)")
add(CON, "List the singers from oldest to youngest with their ages.",
 "SELECT Name, Age FROM singer ORDER BY Age ASC",
 "SELECT Name, Age FROM singer ORDER BY Age DESC",
 "wrong_order", True, "sorts youngest first")
add(CON, "Which stadiums hosted concerts in both 2014 and 2015?",
 "SELECT s.Name FROM stadium s JOIN concert c ON s.Stadium_ID = c.Stadium_ID WHERE c.Year = '2014' INTERSECT SELECT s.Name FROM stadium s JOIN concert c ON s.Stadium_ID = c.Stadium_ID WHERE c.Year = '2015'",
 "SELECT Name FROM stadium WHERE Stadium_ID IN (SELECT Stadium_ID FROM concert WHERE Year = '2014') AND Stadium_ID IN (SELECT Stadium_ID FROM concert WHERE Year = '2015')")
add(CON, "Which stadiums did not host any concert in 2014?",
 "SELECT Name FROM stadium WHERE Stadium_ID NOT IN (SELECT Stadium_ID FROM concert)",
 "SELECT Name FROM stadium WHERE Stadium_ID NOT IN (SELECT Stadium_ID FROM concert WHERE Year = '2014')",
 "different_question", False, "lists stadiums with no concert at all, ignoring 2014")
add(CON, "How many concerts did each stadium host per year?",
 "SELECT s.Name, COUNT(*) FROM concert c JOIN stadium s ON c.Stadium_ID = s.Stadium_ID GROUP BY s.Name",
 "SELECT stadium.Name, concert.Year, count(*) FROM concert JOIN stadium ON concert.Stadium_ID = stadium.Stadium_ID GROUP BY stadium.Name, concert.Year",
 "wrong_grouping_grain", False, "drops the per-year breakdown")
add(PET, "How many students own a dog?",
 "SELECT COUNT(DISTINCT hp.StuID) FROM Has_Pet hp JOIN Pets p ON hp.PetID = p.PetID WHERE p.PetType = 'dog'",
 "SELECT count(*) FROM Student WHERE StuID IN (SELECT StuID FROM Has_Pet JOIN Pets ON Has_Pet.PetID = Pets.PetID WHERE PetType = 'dog')")
add(PET, "How many students have a pet?",
 "SELECT COUNT(StuID) FROM Has_Pet",
 "SELECT count(DISTINCT StuID) FROM Has_Pet",
 "missing_distinct", False, "counts pet ownerships, so a student with two pets counts twice")
add(PET, "What is the average age of female students who don't have any pets?",
 "SELECT AVG(Age) FROM Student WHERE Sex = 'F' AND StuID NOT IN (SELECT StuID FROM Has_Pet)",
 "SELECT avg(s.Age) FROM Student s LEFT JOIN Has_Pet h ON s.StuID = h.StuID WHERE h.StuID IS NULL AND s.Sex = 'F'")
add(PET, "What are the first names of students who own a cat?",
 "SELECT s.LName FROM Student s JOIN Has_Pet hp ON s.StuID = hp.StuID JOIN Pets p ON hp.PetID = p.PetID WHERE p.PetType = 'cat'",
 "SELECT Fname FROM Student JOIN Has_Pet ON Student.StuID = Has_Pet.StuID JOIN Pets ON Has_Pet.PetID = Pets.PetID WHERE PetType = 'cat'",
 "wrong_column", False, "returns the last name instead of the first name")
add(PET, "What type of pet is the heaviest, and how much does it weigh?",
 "SELECT PetType, weight FROM Pets ORDER BY weight DESC LIMIT 1",
 "SELECT PetType, weight FROM Pets WHERE weight = (SELECT max(weight) FROM Pets)")
add(PET, "How many female students are older than 20?",
 "SELECT COUNT(*) FROM Student WHERE Age > 20",
 "SELECT count(*) FROM Student WHERE Sex = 'F' AND Age > 20",
 "lost_condition", False, "drops the female condition")

rng = random.Random(18)
out = {"s": [], "g": [], "m": []}
for prefix, dbs in [("d", [DS]), ("h", [H]), ("s", [CAR, CON, PET])]:
    grp = [r for r in R if r["db"] in dbs]
    rng.shuffle(grp)
    for i, r in enumerate(grp, 1):
        rid = f"h18_{prefix}{i:02d}"
        lab = 0 if r["kind"] else 1
        out["s"].append({"id": rid, "db": r["db"], "question": r["q"], "samples": [{"final_sql": r["sql"]} for _ in range(5)], "label": lab})
        out["g"].append({"id": rid, "gold_sql": r["gold"], "why_wrong": r["why"]})
        out["m"].append({"id": rid, "label": lab, "kind": r["kind"], "ordered": r["ordered"]})
for k, f in [("s", "samples.jsonl"), ("g", "gold.jsonl"), ("m", "meta.jsonl")]:
    with open(f, "w") as fh:
        for o in out[k]:
            fh.write(json.dumps(o) + "\n")
from collections import Counter
print(len(R), Counter(r["db"] for r in R), Counter(bool(r["kind"]) for r in R))
print(Counter(r["kind"] for r in R if r["kind"]))
