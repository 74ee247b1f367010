"""Source of the heldout16 records: writes samples.jsonl and gold.jsonl next to this file.

Each record: id, db ("tpcds" or "tpch"), question, sql (the one model answer, repeated 5x in
samples.jsonl), gold (gold SQL), label (1 right, 0 wrong), kind (the mistake kind for wrong
ones, "" for right ones), why (why the wrong one is wrong), ordered (compare rows in order).

The ids written below are drafting ids (they were drafted roughly alternating right/wrong). The
output shuffles each database's records with a fixed seed and numbers them afresh (h16_d01..d50,
h16_h01..h20), so that position says nothing about the label; meta.jsonl keeps the drafting id.
"""
import json
import random
from pathlib import Path

R = []


def rec(id, db, question, sql, gold, label, kind="", why="", ordered=False):
    R.append(dict(id=id, db=db, question=question, sql=" ".join(sql.split()),
                  gold=" ".join(gold.split()), label=label, kind=kind, why=why, ordered=ordered))


DS, H = "tpcds", "tpch"

# ---------------------------------------------------------------- TPC-DS
rec("h16_d01", DS, "How many of our customers were born in Kuwait?",
    "SELECT COUNT(*) AS customers FROM customer WHERE c_birth_country = 'KUWAIT'",
    "SELECT count(c_customer_sk) FROM customer WHERE upper(c_birth_country) = 'KUWAIT'", 1)

rec("h16_d02", DS, "What was our total in-store sales revenue (extended sales price) in the last full calendar year we have data for?",
    """SELECT SUM(ss.ss_ext_sales_price) AS total_revenue
       FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
       WHERE d.d_year = (SELECT MAX(d2.d_year) FROM store_sales s2 JOIN date_dim d2 ON s2.ss_sold_date_sk = d2.d_date_sk)""",
    """SELECT sum(ss_ext_sales_price) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
       WHERE d_year = 2002""", 0, "wrong year",
    "The data ends on 2003-01-02, so the latest year with sales (2003) holds two days; the last full year is 2002.")

rec("h16_d03", DS, "What's the average current price of items in the Jewelry category?",
    "SELECT AVG(i_current_price) AS avg_price FROM item WHERE i_category = 'Jewelry'",
    "SELECT avg(i_current_price) FROM item WHERE i_category = 'Jewelry'", 1)

rec("h16_d04", DS, "List the top 5 item categories by store sales revenue in 2001, highest first.",
    """SELECT i.i_category, SUM(ss.ss_ext_sales_price) AS revenue
       FROM store_sales ss
       JOIN item i ON ss.ss_item_sk = i.i_item_sk
       JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
       WHERE d.d_year = 2001
       GROUP BY i.i_category
       ORDER BY revenue DESC
       LIMIT 5""",
    """SELECT i_category, sum(ss_ext_sales_price) FROM store_sales, item, date_dim
       WHERE ss_item_sk = i_item_sk AND ss_sold_date_sk = d_date_sk AND d_year = 2001
       GROUP BY i_category ORDER BY 2 DESC LIMIT 5""", 1, ordered=True)

rec("h16_d05", DS, "How many different customers made a store purchase in December 1999?",
    """SELECT COUNT(ss_customer_sk) AS customers
       FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
       WHERE d_year = 1999 AND d_moy = 12""",
    """SELECT count(DISTINCT ss_customer_sk) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
       WHERE d_year = 1999 AND d_moy = 12""", 0, "missing DISTINCT",
    "Counts every sales line with a customer instead of distinct customers.")

rec("h16_d06", DS, "How many customers have bought from us on the web but never in one of our stores?",
    """SELECT COUNT(DISTINCT ws.ws_bill_customer_sk) AS web_only_customers
       FROM web_sales ws
       WHERE ws.ws_bill_customer_sk IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM store_sales ss WHERE ss.ss_customer_sk = ws.ws_bill_customer_sk)""",
    """SELECT count(*) FROM (
         SELECT ws_bill_customer_sk FROM web_sales WHERE ws_bill_customer_sk IS NOT NULL
         EXCEPT
         SELECT ss_customer_sk FROM store_sales WHERE ss_customer_sk IS NOT NULL) t""", 1)

rec("h16_d07", DS, "How many customers have shopped with us both in a store and through the catalog?",
    """SELECT COUNT(*) AS customers FROM (
         SELECT ss_customer_sk AS customer_sk FROM store_sales WHERE ss_customer_sk IS NOT NULL
         UNION
         SELECT cs_bill_customer_sk FROM catalog_sales WHERE cs_bill_customer_sk IS NOT NULL) t""",
    """SELECT count(*) FROM (
         SELECT ss_customer_sk FROM store_sales WHERE ss_customer_sk IS NOT NULL
         INTERSECT
         SELECT cs_bill_customer_sk FROM catalog_sales WHERE cs_bill_customer_sk IS NOT NULL) t""", 0,
    "slightly different question",
    "UNION counts customers who used either channel; the question asks for customers who used both (INTERSECT).")

rec("h16_d08", DS, "How many web orders went out with each type of ship mode?",
    """SELECT sm.sm_type, COUNT(DISTINCT ws.ws_order_number) AS orders
       FROM web_sales ws JOIN ship_mode sm ON ws.ws_ship_mode_sk = sm.sm_ship_mode_sk
       GROUP BY sm.sm_type""",
    """SELECT sm_type, count(DISTINCT ws_order_number) FROM ship_mode, web_sales
       WHERE sm_ship_mode_sk = ws_ship_mode_sk GROUP BY sm_type""", 1)

rec("h16_d09", DS, "How many customers were born in the 1970s?",
    "SELECT COUNT(*) FROM customer WHERE c_birth_year BETWEEN 1970 AND 1980",
    "SELECT count(*) FROM customer WHERE c_birth_year >= 1970 AND c_birth_year < 1980", 0,
    "off-by-one bound", "BETWEEN 1970 AND 1980 also takes in customers born in 1980.")

rec("h16_d10", DS, "What was the total quantity sold through the catalog in each year?",
    """SELECT d.d_year AS year, SUM(cs.cs_quantity) AS total_quantity
       FROM catalog_sales cs JOIN date_dim d ON cs.cs_sold_date_sk = d.d_date_sk
       GROUP BY d.d_year ORDER BY d.d_year""",
    """SELECT d_year, sum(cs_quantity) FROM catalog_sales JOIN date_dim ON cs_sold_date_sk = d_date_sk
       GROUP BY d_year""", 1)

rec("h16_d11", DS, "Which month of 2002 had the lowest web sales net paid?",
    """SELECT d.d_moy AS month, SUM(ws.ws_net_paid) AS net_paid
       FROM web_sales ws JOIN date_dim d ON ws.ws_sold_date_sk = d.d_date_sk
       WHERE d.d_year = 2002
       GROUP BY d.d_moy
       ORDER BY net_paid DESC
       LIMIT 1""",
    """SELECT d_moy, sum(ws_net_paid) FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk
       WHERE d_year = 2002 GROUP BY d_moy ORDER BY 2 ASC LIMIT 1""", 0, "flipped comparison or order",
    "Orders descending, so it returns the month with the highest net paid (December) instead of the lowest (July).")

rec("h16_d12", DS, "What is the average purchase estimate of our female customers who have a college education?",
    """SELECT AVG(cd.cd_purchase_estimate) AS avg_purchase_estimate
       FROM customer c JOIN customer_demographics cd ON c.c_current_cdemo_sk = cd.cd_demo_sk
       WHERE cd.cd_gender = 'F' AND cd.cd_education_status = 'College'""",
    """SELECT avg((SELECT cd_purchase_estimate FROM customer_demographics WHERE cd_demo_sk = c_current_cdemo_sk
       AND cd_gender = 'F' AND cd_education_status = 'College')) FROM customer""", 1)

rec("h16_d13", DS, "How many store sales were made to customers who currently live in Georgia?",
    """SELECT COUNT(*) AS sales
       FROM store_sales ss
       JOIN customer c ON ss.ss_customer_sk = c.c_customer_sk
       JOIN customer_address ca ON c.c_customer_sk = ca.ca_address_sk
       WHERE ca.ca_state = 'GA'""",
    """SELECT count(*) FROM store_sales JOIN customer ON ss_customer_sk = c_customer_sk
       JOIN customer_address ON c_current_addr_sk = ca_address_sk WHERE ca_state = 'GA'""", 0,
    "wrong join key", "Joins the address on the customer key (c_customer_sk) instead of c_current_addr_sk.")

rec("h16_d14", DS, "Which 3 brands in the Music category sold the most units in our stores? Show the biggest first.",
    """SELECT i_brand, SUM(ss_quantity) AS units
       FROM store_sales JOIN item ON ss_item_sk = i_item_sk
       WHERE i_category = 'Music'
       GROUP BY i_brand
       ORDER BY units DESC
       LIMIT 3""",
    """SELECT i_brand, sum(ss_quantity) AS u FROM item JOIN store_sales ON i_item_sk = ss_item_sk
       WHERE i_category = 'Music' GROUP BY 1 ORDER BY u DESC LIMIT 3""", 1, ordered=True)

rec("h16_d15", DS, "How many units were returned to our stores in 2002?",
    """SELECT COUNT(*) AS units_returned
       FROM store_returns sr JOIN date_dim d ON sr.sr_returned_date_sk = d.d_date_sk
       WHERE d.d_year = 2002""",
    """SELECT sum(sr_return_quantity) FROM store_returns JOIN date_dim ON sr_returned_date_sk = d_date_sk
       WHERE d_year = 2002""", 0, "wrong aggregate",
    "COUNT(*) counts return lines; units returned is SUM(sr_return_quantity).")

rec("h16_d16", DS, "How many items do we have in either the Women or the Men category?",
    "SELECT COUNT(*) FROM item WHERE i_category IN ('Women', 'Men')",
    "SELECT count(*) FROM item WHERE i_category = 'Women' OR i_category = 'Men'", 1)

rec("h16_d17", DS, "How many customers were born after 1980?",
    "SELECT COUNT(*) AS customers FROM customer WHERE c_birth_year >= 1980",
    "SELECT count(*) FROM customer WHERE c_birth_year > 1980", 0, "off-by-one bound",
    ">= 1980 also counts customers born in 1980; 'after 1980' means 1981 on.")

rec("h16_d18", DS, "How many different items have been sold on the web but never returned through the web?",
    """SELECT COUNT(DISTINCT ws.ws_item_sk) FROM web_sales ws
       LEFT JOIN web_returns wr ON wr.wr_item_sk = ws.ws_item_sk
       WHERE wr.wr_item_sk IS NULL""",
    """SELECT count(*) FROM (SELECT DISTINCT ws_item_sk FROM web_sales WHERE ws_item_sk IS NOT NULL
       EXCEPT SELECT DISTINCT wr_item_sk FROM web_returns) t""", 1)

rec("h16_d19", DS, "What was the average net profit per web sale in 2001?",
    """SELECT AVG(ws.ws_net_paid) AS avg_net_profit
       FROM web_sales ws JOIN date_dim d ON ws.ws_sold_date_sk = d.d_date_sk
       WHERE d.d_year = 2001""",
    """SELECT avg(ws_net_profit) FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk
       WHERE d_year = 2001""", 0, "wrong column", "Averages ws_net_paid instead of ws_net_profit.")

rec("h16_d20", DS, "How many distinct catalog orders were placed in 1999?",
    """SELECT COUNT(DISTINCT cs_order_number) AS orders
       FROM catalog_sales, date_dim
       WHERE cs_sold_date_sk = d_date_sk AND d_year = 1999""",
    """SELECT count(*) FROM (SELECT DISTINCT cs_order_number FROM catalog_sales
       JOIN date_dim ON cs_sold_date_sk = d_date_sk WHERE d_year = 1999) t""", 1)

rec("h16_d21", DS, "Which item categories had more than $1.2 million in store sales revenue in 2000?",
    """SELECT i.i_category, SUM(ss.ss_ext_sales_price) AS revenue
       FROM store_sales ss JOIN item i ON ss.ss_item_sk = i.i_item_sk
       GROUP BY i.i_category
       HAVING SUM(ss.ss_ext_sales_price) > 1200000""",
    """SELECT i_category, sum(ss_ext_sales_price) FROM store_sales JOIN item ON ss_item_sk = i_item_sk
       JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 2000
       GROUP BY i_category HAVING sum(ss_ext_sales_price) > 1200000""", 0, "lost condition",
    "The year 2000 filter is missing, so revenue over all years is compared with the threshold.")

rec("h16_d22", DS, "How many customers do we have for each value of the preferred-customer flag?",
    """SELECT c_preferred_cust_flag, COUNT(*) AS customers FROM customer
       GROUP BY c_preferred_cust_flag""",
    "SELECT c_preferred_cust_flag, count(c_customer_sk) FROM customer GROUP BY 1", 1)

rec("h16_d23", DS, "How many of our customers were born in Bermuda?",
    "SELECT COUNT(*) AS customers FROM customer WHERE c_birth_country = 'Bermuda'",
    "SELECT count(*) FROM customer WHERE c_birth_country = 'BERMUDA'", 0, "wrong literal or case",
    "Countries are stored in upper case ('BERMUDA'); 'Bermuda' matches nothing.")

rec("h16_d24", DS, "What is the average quantity on hand in inventory for Electronics items?",
    """SELECT AVG(inv.inv_quantity_on_hand) AS avg_on_hand
       FROM inventory inv JOIN item i ON inv.inv_item_sk = i.i_item_sk
       WHERE i.i_category = 'Electronics'""",
    """SELECT avg(inv_quantity_on_hand) FROM inventory WHERE inv_item_sk IN
       (SELECT i_item_sk FROM item WHERE i_category = 'Electronics')""", 1)

rec("h16_d25", DS, "How many of our customers live in Texas?",
    "SELECT COUNT(*) AS customers FROM customer_address WHERE ca_state = 'TX'",
    """SELECT count(*) FROM customer JOIN customer_address ON c_current_addr_sk = ca_address_sk
       WHERE ca_state = 'TX'""", 0, "counting the wrong table",
    "Counts addresses in Texas, not the customers whose current address is there.")

rec("h16_d26", DS, "How many customers have an email address ending in .com?",
    "SELECT COUNT(*) FROM customer WHERE c_email_address LIKE '%.com'",
    "SELECT count(*) FROM customer WHERE suffix(c_email_address, '.com')", 1)

rec("h16_d27", DS, "How many store tickets had more than 10 line items?",
    "SELECT COUNT(*) AS tickets FROM store_sales WHERE ss_quantity > 10",
    """SELECT count(*) FROM (SELECT ss_ticket_number FROM store_sales GROUP BY ss_ticket_number
       HAVING count(*) > 10) t""", 0, "slightly different question",
    "Counts sales lines with more than 10 units instead of tickets with more than 10 lines.")

rec("h16_d28", DS, "Who were our top 10 store customers by total net paid in 2002? Give their names, biggest spender first.",
    """SELECT c.c_first_name, c.c_last_name, SUM(ss.ss_net_paid) AS total_paid
       FROM store_sales ss
       JOIN customer c ON ss.ss_customer_sk = c.c_customer_sk
       JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
       WHERE d.d_year = 2002
       GROUP BY c.c_customer_sk, c.c_first_name, c.c_last_name
       ORDER BY total_paid DESC
       LIMIT 10""",
    """SELECT c_first_name, c_last_name, t FROM customer JOIN (
         SELECT ss_customer_sk, sum(ss_net_paid) t FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
         WHERE d_year = 2002 GROUP BY ss_customer_sk) s ON s.ss_customer_sk = c_customer_sk
       ORDER BY t DESC LIMIT 10""", 1, ordered=True)

rec("h16_d29", DS, "How many store sales were there on each day of the week in 2000?",
    """SELECT d.d_day_name, COUNT(*) AS sales
       FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
       GROUP BY d.d_day_name""",
    """SELECT d_day_name, count(*) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
       WHERE d_year = 2000 GROUP BY d_day_name""", 0, "lost condition",
    "The 2000 filter is missing: counts cover every year.")

rec("h16_d30", DS, "What was the total shipping cost of catalog sales shipped with UPS?",
    """SELECT SUM(cs.cs_ext_ship_cost) AS total_ship_cost
       FROM catalog_sales cs JOIN ship_mode sm ON cs.cs_ship_mode_sk = sm.sm_ship_mode_sk
       WHERE sm.sm_carrier = 'UPS'""",
    """SELECT sum(cs_ext_ship_cost) FROM catalog_sales WHERE cs_ship_mode_sk IN
       (SELECT sm_ship_mode_sk FROM ship_mode WHERE sm_carrier = 'UPS')""", 1)

rec("h16_d31", DS, "How many catalog sales lines were shipped in 2001?",
    """SELECT COUNT(*) AS lines_shipped
       FROM catalog_sales cs JOIN date_dim d ON cs.cs_sold_date_sk = d.d_date_sk
       WHERE d.d_year = 2001""",
    """SELECT count(*) FROM catalog_sales JOIN date_dim ON cs_ship_date_sk = d_date_sk
       WHERE d_year = 2001""", 0, "wrong column",
    "Filters on the sold date (cs_sold_date_sk) rather than the ship date (cs_ship_date_sk).")

rec("h16_d32", DS, "Which item category had the most units returned to our stores?",
    """SELECT i.i_category, SUM(sr.sr_return_quantity) AS units_returned
       FROM store_returns sr JOIN item i ON sr.sr_item_sk = i.i_item_sk
       GROUP BY i.i_category
       ORDER BY units_returned DESC
       LIMIT 1""",
    """WITH t AS (SELECT i_category, sum(sr_return_quantity) q FROM store_returns JOIN item ON sr_item_sk = i_item_sk
       GROUP BY i_category) SELECT i_category, q FROM t WHERE q = (SELECT max(q) FROM t)""", 1)

rec("h16_d33", DS, "How many different customers have returned something to one of our stores?",
    "SELECT COUNT(sr_customer_sk) AS customers FROM store_returns",
    "SELECT count(DISTINCT sr_customer_sk) FROM store_returns", 0, "missing DISTINCT",
    "Counts return lines with a customer, not distinct customers.")

rec("h16_d34", DS, "How many customers have a birthday in January or February?",
    "SELECT COUNT(*) FROM customer WHERE c_birth_month IN (1, 2)",
    "SELECT count(*) FROM customer WHERE c_birth_month = 1 OR c_birth_month = 2", 1)

rec("h16_d35", DS, "How many items have a wholesale cost that is more than half of their current price?",
    "SELECT COUNT(*) AS items FROM item WHERE i_current_price / 2 > i_wholesale_cost",
    "SELECT count(*) FROM item WHERE i_wholesale_cost > i_current_price / 2", 0, "flipped comparison or order",
    "The comparison is reversed: it counts items whose wholesale cost is below half the price.")

rec("h16_d36", DS, "What was the average catalog sales price of Sports items sold in 1998?",
    """SELECT AVG(cs.cs_sales_price) AS avg_sales_price
       FROM catalog_sales cs
       JOIN item i ON cs.cs_item_sk = i.i_item_sk
       JOIN date_dim d ON cs.cs_sold_date_sk = d.d_date_sk
       WHERE i.i_category = 'Sports' AND d.d_year = 1998""",
    """SELECT avg(cs_sales_price) FROM catalog_sales, item, date_dim
       WHERE cs_item_sk = i_item_sk AND cs_sold_date_sk = d_date_sk AND i_category = 'Sports' AND d_year = 1998""", 1)

rec("h16_d37", DS, "How many customers bought something in our stores in 1999 but not in 2000?",
    """SELECT COUNT(*) FROM (
         SELECT ss_customer_sk FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
         WHERE d_year = 2000 AND ss_customer_sk IS NOT NULL
         EXCEPT
         SELECT ss_customer_sk FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
         WHERE d_year = 1999) t""",
    """SELECT count(*) FROM (
         SELECT ss_customer_sk FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
         WHERE d_year = 1999 AND ss_customer_sk IS NOT NULL
         EXCEPT
         SELECT ss_customer_sk FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
         WHERE d_year = 2000) t""", 0, "wrong year",
    "The years are swapped: it counts customers who bought in 2000 but not in 1999.")

rec("h16_d38", DS, "How much cash did we refund on web returns in 2001?",
    """SELECT SUM(wr.wr_return_amt) AS refunded
       FROM web_returns wr JOIN date_dim d ON wr.wr_returned_date_sk = d.d_date_sk
       WHERE d.d_year = 2001""",
    """SELECT sum(wr_refunded_cash) FROM web_returns JOIN date_dim ON wr_returned_date_sk = d_date_sk
       WHERE d_year = 2001""", 0, "wrong column",
    "Sums wr_return_amt (the amount returned) instead of wr_refunded_cash.")

rec("h16_d39", DS, "How many of our customers have an Advanced Degree?",
    "SELECT COUNT(*) FROM customer_demographics WHERE cd_education_status = 'Advanced Degree'",
    """SELECT count(*) FROM customer JOIN customer_demographics ON c_current_cdemo_sk = cd_demo_sk
       WHERE cd_education_status = 'Advanced Degree'""", 0, "counting the wrong table",
    "Counts demographic profiles with an Advanced Degree, not customers whose current profile has one.")

rec("h16_d40", DS, "How many customers have never bought anything from us in any channel (store, catalog or web)?",
    """SELECT COUNT(*) FROM customer c
       WHERE NOT EXISTS (SELECT 1 FROM store_sales ss WHERE ss.ss_customer_sk = c.c_customer_sk)
         AND NOT EXISTS (SELECT 1 FROM catalog_sales cs WHERE cs.cs_bill_customer_sk = c.c_customer_sk)
         AND NOT EXISTS (SELECT 1 FROM web_sales ws WHERE ws.ws_bill_customer_sk = c.c_customer_sk)""",
    """SELECT count(*) FROM (SELECT c_customer_sk FROM customer EXCEPT
       (SELECT ss_customer_sk FROM store_sales UNION SELECT cs_bill_customer_sk FROM catalog_sales
        UNION SELECT ws_bill_customer_sk FROM web_sales)) t""", 1)

rec("h16_d41", DS, "What was the total net paid on store sales lines that were later returned?",
    """SELECT SUM(ss.ss_net_paid) AS net_paid_returned
       FROM store_sales ss JOIN store_returns sr ON ss.ss_item_sk = sr.sr_item_sk""",
    """SELECT sum(ss_net_paid) FROM store_sales WHERE EXISTS (SELECT 1 FROM store_returns
       WHERE sr_item_sk = ss_item_sk AND sr_ticket_number = ss_ticket_number)""", 0, "wrong join key",
    "Joins returns on the item alone, without the ticket number, so every sale of a returned item matches every return of it.")

rec("h16_d42", DS, "What was the web sales net profit for each item category other than Books and Music?",
    """SELECT i.i_category, SUM(ws.ws_net_profit) AS net_profit
       FROM web_sales ws JOIN item i ON ws.ws_item_sk = i.i_item_sk
       WHERE i.i_category NOT IN ('Books', 'Music')
       GROUP BY i.i_category""",
    """SELECT i_category, sum(ws_net_profit) FROM item JOIN web_sales ON ws_item_sk = i_item_sk
       WHERE i_category <> 'Books' AND i_category <> 'Music' GROUP BY i_category""", 1)

rec("h16_d43", DS, "How many married women are there among our customers?",
    """SELECT COUNT(*) AS customers
       FROM customer c JOIN customer_demographics cd ON c.c_current_cdemo_sk = cd.cd_demo_sk
       WHERE cd.cd_gender = 'F' AND cd.cd_marital_status = 'Married'""",
    """SELECT count(*) FROM customer JOIN customer_demographics ON c_current_cdemo_sk = cd_demo_sk
       WHERE cd_gender = 'F' AND cd_marital_status = 'M'""", 0, "wrong literal or case",
    "Marital status is stored as a code ('M'); 'Married' matches nothing.")

rec("h16_d44", DS, "Show store sales revenue for each month of 2001, in calendar order.",
    """SELECT d.d_moy AS month, SUM(ss.ss_ext_sales_price) AS revenue
       FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
       WHERE d.d_year = 2001
       GROUP BY d.d_moy
       ORDER BY d.d_moy""",
    """SELECT d_moy, sum(ss_ext_sales_price) FROM date_dim JOIN store_sales ON d_date_sk = ss_sold_date_sk
       WHERE d_year = 2001 GROUP BY d_moy ORDER BY d_moy ASC""", 1, ordered=True)

rec("h16_d45", DS, "What was the average value of a web order (net paid per order) in 2001?",
    """SELECT AVG(ws.ws_net_paid) AS avg_order_value
       FROM web_sales ws JOIN date_dim d ON ws.ws_sold_date_sk = d.d_date_sk
       WHERE d.d_year = 2001""",
    """SELECT avg(v) FROM (SELECT ws_order_number, sum(ws_net_paid) v FROM web_sales
       JOIN date_dim ON ws_sold_date_sk = d_date_sk WHERE d_year = 2001 GROUP BY ws_order_number) t""", 0,
    "wrong aggregate", "Averages net paid per order line instead of summing per order first and averaging the order totals.")

rec("h16_d46", DS, "How many different items have been sold in all three channels: store, catalog and web?",
    """SELECT COUNT(*) FROM (
         SELECT DISTINCT ss_item_sk FROM store_sales
         INTERSECT SELECT DISTINCT cs_item_sk FROM catalog_sales
         INTERSECT SELECT DISTINCT ws_item_sk FROM web_sales) x""",
    """SELECT count(*) FROM item WHERE i_item_sk IN (SELECT ss_item_sk FROM store_sales)
       AND i_item_sk IN (SELECT cs_item_sk FROM catalog_sales) AND i_item_sk IN (SELECT ws_item_sk FROM web_sales)""", 1)

rec("h16_d47", DS, "How many customers spent more than $20,000 in our stores (net paid) in a single calendar year?",
    """SELECT COUNT(*) AS customers FROM (
         SELECT ss_customer_sk FROM store_sales
         WHERE ss_customer_sk IS NOT NULL
         GROUP BY ss_customer_sk
         HAVING SUM(ss_net_paid) > 20000) t""",
    """SELECT count(DISTINCT ss_customer_sk) FROM (
         SELECT ss_customer_sk, d_year FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
         WHERE ss_customer_sk IS NOT NULL GROUP BY ss_customer_sk, d_year HAVING sum(ss_net_paid) > 20000) t""", 0,
    "slightly different question", "Sums each customer's spending over all years instead of within a single year.")

rec("h16_d48", DS, "How many different customers living in Texas have bought something on the web?",
    """SELECT COUNT(DISTINCT ws.ws_bill_customer_sk)
       FROM web_sales ws
       JOIN customer c ON ws.ws_bill_customer_sk = c.c_customer_sk
       JOIN customer_address ca ON c.c_current_addr_sk = ca.ca_address_sk
       WHERE ca.ca_state = 'TX'""",
    """SELECT count(*) FROM customer JOIN customer_address ON c_current_addr_sk = ca_address_sk
       WHERE ca_state = 'TX' AND c_customer_sk IN (SELECT ws_bill_customer_sk FROM web_sales)""", 1)

rec("h16_d49", DS, "What was our total catalog sales revenue (extended sales price) in the first half of 2001?",
    """SELECT SUM(cs.cs_ext_sales_price) AS revenue
       FROM catalog_sales cs JOIN date_dim d ON cs.cs_sold_date_sk = d.d_date_sk
       WHERE d.d_moy BETWEEN 1 AND 6""",
    """SELECT sum(cs_ext_sales_price) FROM catalog_sales JOIN date_dim ON cs_sold_date_sk = d_date_sk
       WHERE d_year = 2001 AND d_moy <= 6""", 0, "lost condition",
    "The year condition is missing: it sums January to June of every year.")

rec("h16_d50", DS, "What is the most expensive item in the Electronics category right now, and what does it cost?",
    """SELECT i_product_name, i_current_price FROM item
       WHERE i_category = 'Electronics'
       ORDER BY i_current_price DESC LIMIT 1""",
    """SELECT i_product_name, i_current_price FROM item WHERE i_category = 'Electronics'
       AND i_current_price = (SELECT max(i_current_price) FROM item WHERE i_category = 'Electronics')""", 1)

# ---------------------------------------------------------------- TPC-H
rec("h16_h01", H, "How many orders were placed in 1995?",
    "SELECT COUNT(*) AS orders FROM orders WHERE o_orderdate >= DATE '1995-01-01' AND o_orderdate < DATE '1996-01-01'",
    "SELECT count(*) FROM orders WHERE year(o_orderdate) = 1995", 1)

rec("h16_h02", H, "What was the total revenue (extended price after discount) of line items shipped in 1996?",
    """SELECT SUM(l.l_extendedprice * (1 - l.l_discount)) AS revenue
       FROM lineitem l JOIN orders o ON l.l_orderkey = o.o_orderkey
       WHERE o.o_orderdate >= DATE '1996-01-01' AND o.o_orderdate < DATE '1997-01-01'""",
    """SELECT sum(l_extendedprice * (1 - l_discount)) FROM lineitem
       WHERE l_shipdate >= DATE '1996-01-01' AND l_shipdate < DATE '1997-01-01'""", 0, "wrong column",
    "Filters on the order date (o_orderdate) instead of the ship date (l_shipdate).")

rec("h16_h03", H, "Who are the top 5 customers by total value of their orders? Show name and total, largest first.",
    """SELECT c.c_name, SUM(o.o_totalprice) AS total_value
       FROM customer c JOIN orders o ON o.o_custkey = c.c_custkey
       GROUP BY c.c_custkey, c.c_name
       ORDER BY total_value DESC
       LIMIT 5""",
    """SELECT c_name, t FROM customer JOIN (SELECT o_custkey, sum(o_totalprice) t FROM orders GROUP BY o_custkey) s
       ON s.o_custkey = c_custkey ORDER BY t DESC LIMIT 5""", 1, ordered=True)

rec("h16_h04", H, "How many orders were placed in the first quarter of 1994?",
    """SELECT COUNT(*) AS orders FROM orders
       WHERE o_orderdate BETWEEN DATE '1994-01-01' AND DATE '1994-04-01'""",
    """SELECT count(*) FROM orders WHERE o_orderdate >= DATE '1994-01-01' AND o_orderdate < DATE '1994-04-01'""", 0,
    "off-by-one bound", "BETWEEN ... '1994-04-01' also counts orders placed on 1 April, which is in the second quarter.")

rec("h16_h05", H, "How many suppliers are based in Germany?",
    """SELECT COUNT(*) AS suppliers FROM supplier s JOIN nation n ON s.s_nationkey = n.n_nationkey
       WHERE n.n_name = 'GERMANY'""",
    "SELECT count(*) FROM supplier WHERE s_nationkey IN (SELECT n_nationkey FROM nation WHERE n_name = 'GERMANY')", 1)

rec("h16_h06", H, "What's the average account balance of customers in Asia?",
    """SELECT AVG(c.c_acctbal) AS avg_balance
       FROM customer c
       JOIN nation n ON c.c_nationkey = n.n_nationkey
       JOIN region r ON n.n_nationkey = r.r_regionkey
       WHERE r.r_name = 'ASIA'""",
    """SELECT avg(c_acctbal) FROM customer JOIN nation ON c_nationkey = n_nationkey
       JOIN region ON n_regionkey = r_regionkey WHERE r_name = 'ASIA'""", 0, "wrong join key",
    "Joins region on n_nationkey instead of n_regionkey, so it averages the customers of one nation.")

rec("h16_h07", H, "How many orders are still open?",
    "SELECT COUNT(*) FROM orders WHERE o_orderstatus = 'O'",
    "SELECT count(o_orderkey) FROM orders WHERE o_orderstatus = 'O'", 1)

rec("h16_h08", H, "How many returned line items were shipped by air or by rail?",
    """SELECT COUNT(*) AS line_items FROM lineitem
       WHERE l_returnflag = 'R' AND l_shipmode = 'AIR' OR l_shipmode = 'RAIL'""",
    "SELECT count(*) FROM lineitem WHERE l_returnflag = 'R' AND l_shipmode IN ('AIR', 'RAIL')", 0,
    "lost condition", "Without parentheses the returned-flag condition applies only to AIR; every RAIL line is counted.")

rec("h16_h09", H, "How many parts of brand Brand#23 have a size between 10 and 20?",
    "SELECT COUNT(*) FROM part WHERE p_brand = 'Brand#23' AND p_size BETWEEN 10 AND 20",
    "SELECT count(*) FROM part WHERE p_brand = 'Brand#23' AND p_size >= 10 AND p_size <= 20", 1)

rec("h16_h10", H, "How many customers have never placed an order?",
    """SELECT COUNT(*) AS customers FROM customer c
       LEFT JOIN orders o ON o.o_custkey = c.c_custkey
       WHERE o.o_orderkey IS NULL""",
    "SELECT count(*) FROM customer WHERE c_custkey NOT IN (SELECT o_custkey FROM orders)", 1)

rec("h16_h11", H, "Which 4 nations have the fewest customers? List them fewest first.",
    """SELECT n.n_name, COUNT(*) AS customers
       FROM customer c JOIN nation n ON c.c_nationkey = n.n_nationkey
       GROUP BY n.n_name
       ORDER BY customers DESC
       LIMIT 4""",
    """SELECT n_name, count(*) c FROM customer JOIN nation ON c_nationkey = n_nationkey
       GROUP BY n_name ORDER BY c ASC LIMIT 4""", 0, "flipped comparison or order",
    "Sorted descending, so it lists the four nations with the most customers.")

rec("h16_h12", H, "What is the average quantity per line item on urgent-priority orders?",
    """SELECT AVG(l.l_quantity) AS avg_quantity
       FROM lineitem l JOIN orders o ON l.l_orderkey = o.o_orderkey
       WHERE o.o_orderpriority = '1-URGENT'""",
    """SELECT avg(l_quantity) FROM lineitem WHERE l_orderkey IN
       (SELECT o_orderkey FROM orders WHERE o_orderpriority = '1-URGENT')""", 1)

rec("h16_h13", H, "How many orders have the HIGH order priority?",
    "SELECT COUNT(*) AS orders FROM orders WHERE o_orderpriority = 'HIGH'",
    "SELECT count(*) FROM orders WHERE o_orderpriority = '2-HIGH'", 0, "wrong literal or case",
    "Priorities are stored with their rank ('2-HIGH'); 'HIGH' matches nothing.")

rec("h16_h14", H, "How many line items shipped in 1997 arrived after their committed date?",
    """SELECT COUNT(*) FROM lineitem
       WHERE l_receiptdate > l_commitdate
         AND l_shipdate >= DATE '1997-01-01' AND l_shipdate < DATE '1998-01-01'""",
    "SELECT count(*) FROM lineitem WHERE year(l_shipdate) = 1997 AND l_commitdate < l_receiptdate", 1)

rec("h16_h15", H, "How many different customers placed at least one order in 1998?",
    """SELECT COUNT(o_custkey) AS customers FROM orders
       WHERE o_orderdate >= DATE '1998-01-01' AND o_orderdate < DATE '1999-01-01'""",
    "SELECT count(DISTINCT o_custkey) FROM orders WHERE year(o_orderdate) = 1998", 0, "missing DISTINCT",
    "Counts orders, not distinct customers.")

rec("h16_h16", H, "How many orders were placed each year? List the years in order.",
    """SELECT EXTRACT(YEAR FROM o_orderdate) AS order_year, COUNT(*) AS orders
       FROM orders GROUP BY order_year ORDER BY order_year""",
    "SELECT year(o_orderdate) y, count(*) FROM orders GROUP BY y ORDER BY y", 1, ordered=True)

rec("h16_h17", H, "What was the total value of orders placed in the last complete calendar year in the data?",
    """SELECT SUM(o_totalprice) AS total_value FROM orders
       WHERE EXTRACT(YEAR FROM o_orderdate) = (SELECT MAX(EXTRACT(YEAR FROM o_orderdate)) FROM orders)""",
    "SELECT sum(o_totalprice) FROM orders WHERE year(o_orderdate) = 1997", 0, "wrong year",
    "Orders run only to August 1998, so the last complete year is 1997, not the latest year 1998.")

rec("h16_h18", H, "How many suppliers have a negative account balance?",
    "SELECT COUNT(*) FROM supplier WHERE s_acctbal < 0",
    "SELECT count(*) FROM supplier WHERE NOT s_acctbal >= 0", 1)

rec("h16_h19", H, "How many orders include at least one line item shipped by air?",
    "SELECT COUNT(*) AS orders FROM lineitem WHERE l_shipmode = 'AIR'",
    "SELECT count(*) FROM orders WHERE EXISTS (SELECT 1 FROM lineitem WHERE l_orderkey = o_orderkey AND l_shipmode = 'AIR')", 0,
    "counting the wrong table", "Counts line items shipped by air, not the orders that contain one.")

rec("h16_h20", H, "What is the median total price of an order for each order priority?",
    """SELECT o_orderpriority, AVG(o_totalprice) AS median_total
       FROM orders GROUP BY o_orderpriority""",
    "SELECT o_orderpriority, median(o_totalprice) FROM orders GROUP BY o_orderpriority", 0,
    "wrong aggregate", "Uses AVG (the mean) where the question asks for the median.")


def main():
    here = Path(__file__).resolve().parent
    ids = [r["id"] for r in R]
    assert len(ids) == len(set(ids)) == 70, len(ids)
    out = []
    for db, prefix in ((DS, "h16_d"), (H, "h16_h")):
        group = [r for r in R if r["db"] == db]
        random.Random(1616).shuffle(group)
        for n, r in enumerate(group, 1):
            out.append(dict(r, draft_id=r["id"], id="%s%02d" % (prefix, n)))
    with open(here / "samples.jsonl", "w") as s, open(here / "gold.jsonl", "w") as g, \
            open(here / "meta.jsonl", "w") as m:
        for r in out:
            s.write(json.dumps({"id": r["id"], "db": "{%s}" % r["db"], "question": r["question"],
                                "samples": [{"final_sql": r["sql"]} for _ in range(5)],
                                "label": r["label"]}) + "\n")
            g.write(json.dumps({"id": r["id"], "gold_sql": r["gold"], "why_wrong": r["why"]}) + "\n")
            m.write(json.dumps({"id": r["id"], "draft_id": r["draft_id"], "label": r["label"], "kind": r["kind"],
                                "ordered": r["ordered"]}) + "\n")


if __name__ == "__main__":
    main()
