SI = "{csv:sfguide-snowflake-intelligence/data}"
CA = "{csv:sfguide-cortex-analyst/data}"
MF = "{csv:metricflow-tutorial/dbt-metricflow/dbt_metricflow/cli/sample_dbt_models/seeds}"
# (id, db, question, sql, label, gold, why_wrong, kind, ordered)
R = []
def add(i, db, q, sql, label, gold, why, kind, ordered=False):
    R.append(dict(id=i, db=db, question=q, sql=sql, label=label, gold=gold, why=why, kind=kind, ordered=ordered))

add("h19_s01", SI, "How many products do we have in the Footwear category?",
    "SELECT COUNT(*) AS product_count FROM products WHERE category = 'Footwear'", 1,
    "SELECT COUNT(product_id) FROM products WHERE category = 'Footwear'", "", "count")
add("h19_s02", SI, "What were total sales in the West region?",
    "SELECT SUM(sales_amount) AS total_sales FROM sales WHERE region = 'west'", 0,
    "SELECT SUM(sales_amount) FROM sales WHERE region = 'West'", "wrong literal case: region values are capitalised ('West'), so 'west' matches nothing", "wrong_literal_case")
add("h19_s03", SI, "How many units did we sell in July 2025?",
    "SELECT SUM(units_sold) AS units FROM sales WHERE date >= DATE '2025-07-01' AND date < DATE '2025-08-01'", 1,
    "SELECT SUM(units_sold) FROM sales WHERE year(date) = 2025 AND month(date) = 7", "", "sum_month")
add("h19_s04", SI, "What was our total sales amount in June 2025?",
    "SELECT SUM(sales_amount) AS total_sales FROM sales WHERE date BETWEEN '2025-06-01' AND '2025-07-01'", 0,
    "SELECT SUM(sales_amount) FROM sales WHERE date >= '2025-06-01' AND date < '2025-07-01'", "off-by-one bound: BETWEEN includes 1 July", "off_by_one_bound")
add("h19_s05", SI, "What are the top 5 products by total sales amount, highest first?",
    "SELECT p.product_name, SUM(s.sales_amount) AS total_sales FROM sales s JOIN products p ON s.product_id = p.product_id GROUP BY p.product_name ORDER BY total_sales DESC LIMIT 5", 1,
    "SELECT p.product_name, SUM(s.sales_amount) AS t FROM products p JOIN sales s USING (product_id) GROUP BY 1 ORDER BY t DESC LIMIT 5", "", "top_n", True)
add("h19_s06", SI, "Which 3 products sold the most units?",
    "SELECT p.product_name, SUM(s.units_sold) AS units FROM sales s JOIN products p ON s.product_id = p.product_id GROUP BY p.product_name ORDER BY SUM(s.sales_amount) DESC LIMIT 3", 0,
    "SELECT p.product_name, SUM(s.units_sold) AS units FROM sales s JOIN products p ON s.product_id = p.product_id GROUP BY p.product_name ORDER BY units DESC LIMIT 3", "wrong column: ranks by sales_amount instead of units_sold", "wrong_column")
add("h19_s07", SI, "On average, how many clicks did the Summer Fitness Campaign get per day?",
    "SELECT AVG(clicks) AS avg_daily_clicks FROM marketing_campaign_metrics WHERE campaign_name = 'Summer Fitness Campaign'", 1,
    "SELECT SUM(clicks) * 1.0 / COUNT(DISTINCT date) FROM marketing_campaign_metrics WHERE campaign_name = 'Summer Fitness Campaign'", "", "average")
add("h19_s08", SI, "How many impressions did the Summer Fitness Campaign get in total?",
    "SELECT AVG(impressions) AS total_impressions FROM marketing_campaign_metrics WHERE campaign_name = 'Summer Fitness Campaign'", 0,
    "SELECT SUM(impressions) FROM marketing_campaign_metrics WHERE campaign_name = 'Summer Fitness Campaign'", "wrong aggregate: AVG instead of SUM for a total", "wrong_aggregate")
add("h19_s09", SI, "Break down total sales amount by region.",
    "SELECT region, SUM(sales_amount) AS total_sales FROM sales GROUP BY region", 1,
    "SELECT region, SUM(sales_amount) FROM sales GROUP BY region", "", "breakdown")
add("h19_s10", SI, "How many different products had sales in the South region?",
    "SELECT COUNT(product_id) AS products FROM sales WHERE region = 'South'", 0,
    "SELECT COUNT(DISTINCT product_id) FROM sales WHERE region = 'South'", "missing DISTINCT: counts sales rows, not different products", "missing_distinct")
add("h19_s11", SI, "Which product category brought in the most revenue?",
    "SELECT p.category, SUM(s.sales_amount) AS revenue FROM sales s JOIN products p ON s.product_id = p.product_id GROUP BY p.category ORDER BY revenue DESC LIMIT 1", 1,
    "SELECT category, r FROM (SELECT p.category, SUM(s.sales_amount) AS r FROM sales s JOIN products p USING (product_id) GROUP BY 1) ORDER BY r DESC LIMIT 1", "", "superlative")
add("h19_s12", SI, "Which region sold the fewest units?",
    "SELECT region, SUM(units_sold) AS units FROM sales GROUP BY region ORDER BY units DESC LIMIT 1", 0,
    "SELECT region, SUM(units_sold) AS units FROM sales GROUP BY region ORDER BY units ASC LIMIT 1", "flipped order: DESC returns the region with the most units", "flipped_order")
add("h19_s13", SI, "On how many days did Instagram get more than 10 mentions?",
    "SELECT COUNT(DISTINCT date) AS days FROM social_media_mentions WHERE platform = 'Instagram' AND mentions > 10", 1,
    "SELECT COUNT(*) FROM (SELECT date FROM social_media_mentions WHERE platform = 'Instagram' GROUP BY date HAVING SUM(mentions) > 10)", "", "count_filter")
add("h19_s14", SI, "How many Instagram mentions came from the influencer NovaFitStar?",
    "SELECT SUM(mentions) AS mentions FROM social_media_mentions WHERE platform = 'Instagram'", 0,
    "SELECT SUM(mentions) FROM social_media_mentions WHERE platform = 'Instagram' AND influencer = 'NovaFitStar'", "lost condition: the influencer filter is dropped", "lost_condition")
add("h19_s15", SI, "Total social media mentions per platform, highest first.",
    "SELECT platform, SUM(mentions) AS total_mentions FROM social_media_mentions GROUP BY platform ORDER BY total_mentions DESC", 1,
    "SELECT platform, SUM(mentions) FROM social_media_mentions GROUP BY 1 ORDER BY 2 DESC", "", "breakdown_ordered", True)
add("h19_s16", SI, "On how many campaign days did we get fewer than 500 clicks?",
    "SELECT COUNT(*) AS days FROM marketing_campaign_metrics WHERE clicks > 500", 0,
    "SELECT COUNT(*) FROM marketing_campaign_metrics WHERE clicks < 500", "flipped comparison: > instead of <", "flipped_comparison")
add("h19_s17", SI, "What was the overall click-through rate of the Summer Fitness Campaign?",
    "SELECT SUM(clicks) * 1.0 / SUM(impressions) AS ctr FROM marketing_campaign_metrics WHERE campaign_name = 'Summer Fitness Campaign'", 1,
    "SELECT CAST(SUM(clicks) AS DOUBLE) / SUM(impressions) FROM marketing_campaign_metrics WHERE campaign_name = 'Summer Fitness Campaign'", "", "ratio")
add("h19_s18", SI, "What was the overall click-through rate across all campaign days?",
    "SELECT AVG(clicks * 1.0 / impressions) AS ctr FROM marketing_campaign_metrics", 0,
    "SELECT SUM(clicks) * 1.0 / SUM(impressions) FROM marketing_campaign_metrics", "slightly different question: average of daily ratios instead of the overall ratio", "different_question")
add("h19_s19", SI, "What were total sales for every category except Footwear?",
    "SELECT SUM(s.sales_amount) AS total_sales FROM sales s JOIN products p ON s.product_id = p.product_id WHERE p.category <> 'Footwear'", 1,
    "SELECT SUM(sales_amount) FROM sales WHERE product_id IN (SELECT product_id FROM products WHERE category != 'Footwear')", "", "negation")
add("h19_s20", SI, "How many units did we sell of products that are not accessories?",
    "SELECT SUM(s.units_sold) AS units FROM sales s JOIN products p ON s.product_id = p.product_id WHERE p.category <> 'Accessory'", 0,
    "SELECT SUM(s.units_sold) FROM sales s JOIN products p ON s.product_id = p.product_id WHERE p.category <> 'Accessories'", "wrong literal: 'Accessory' is not a stored value, so the negation excludes nothing", "wrong_literal")
add("h19_s21", SI, "On which days did both Instagram and Facebook get more than 12 mentions?",
    "SELECT i.date FROM social_media_mentions i JOIN social_media_mentions f ON i.date = f.date WHERE i.platform = 'Instagram' AND f.platform = 'Facebook' AND i.mentions > 12 AND f.mentions > 12", 1,
    "SELECT date FROM social_media_mentions WHERE platform = 'Instagram' AND mentions > 12 INTERSECT SELECT date FROM social_media_mentions WHERE platform = 'Facebook' AND mentions > 12", "", "both")
add("h19_s22", SI, "On which days did both Instagram and Twitter get more than 12 mentions?",
    "SELECT DISTINCT date FROM social_media_mentions WHERE platform IN ('Instagram', 'Twitter') AND mentions > 12", 0,
    "SELECT date FROM social_media_mentions WHERE platform = 'Instagram' AND mentions > 12 INTERSECT SELECT date FROM social_media_mentions WHERE platform = 'Twitter' AND mentions > 12", "both read as either: IN returns days where either platform passed", "both_as_either")
add("h19_s23", SI, "Show total sales amount for each month of 2025 in month order.",
    "SELECT month(date) AS month, SUM(sales_amount) AS total_sales FROM sales WHERE year(date) = 2025 GROUP BY month(date) ORDER BY month", 1,
    "SELECT EXTRACT(month FROM date) AS m, SUM(sales_amount) FROM sales WHERE date >= '2025-01-01' AND date < '2026-01-01' GROUP BY 1 ORDER BY 1", "", "month_breakdown", True)
add("h19_s24", SI, "What were total sales in August 2025?",
    "SELECT SUM(sales_amount) AS total_sales FROM sales WHERE year(date) = 2025 AND month(date) = 7", 0,
    "SELECT SUM(sales_amount) FROM sales WHERE year(date) = 2025 AND month(date) = 8", "wrong month: 7 (July) instead of 8 (August)", "wrong_month")
add("h19_s25", SI, "What is the average sale amount for Casual Wear products?",
    "SELECT AVG(s.sales_amount) AS avg_sale FROM sales s JOIN products p ON s.product_id = p.product_id WHERE p.category = 'Casual Wear'", 1,
    "SELECT SUM(s.sales_amount) / COUNT(*) FROM sales s JOIN products p USING (product_id) WHERE p.category = 'Casual Wear'", "", "average")
add("h19_s26", SI, "How many social media mentions did we get on the days the Summer Fitness Campaign ran?",
    "SELECT SUM(m.mentions) AS mentions FROM social_media_mentions m JOIN marketing_campaign_metrics c ON m.category = c.category WHERE c.campaign_name = 'Summer Fitness Campaign'", 0,
    "SELECT SUM(mentions) FROM social_media_mentions WHERE date IN (SELECT date FROM marketing_campaign_metrics WHERE campaign_name = 'Summer Fitness Campaign')", "wrong join key: joined on category instead of date, so every mention is repeated for every campaign day", "wrong_join_key")
add("h19_s27", SI, "How many days did the Summer Fitness Campaign run?",
    "SELECT COUNT(DISTINCT date) AS days FROM marketing_campaign_metrics WHERE campaign_name = 'Summer Fitness Campaign'", 1,
    "SELECT max(date) - min(date) + 1 FROM marketing_campaign_metrics WHERE campaign_name = 'Summer Fitness Campaign'", "", "count_distinct")
add("h19_s28", SI, "How many products are in the Fitness Wear category?",
    "SELECT COUNT(*) AS products FROM sales s JOIN products p ON s.product_id = p.product_id WHERE p.category = 'Fitness Wear'", 0,
    "SELECT COUNT(*) FROM products WHERE category = 'Fitness Wear'", "counting the wrong table: counts sales rows of Fitness Wear products, not products", "wrong_table_counted")
add("h19_s29", SI, "Which day had the highest total units sold in the North region?",
    "SELECT date, SUM(units_sold) AS units FROM sales WHERE region = 'North' GROUP BY date ORDER BY units DESC LIMIT 1", 1,
    "SELECT date, SUM(units_sold) FROM sales WHERE region = 'North' GROUP BY date QUALIFY rank() OVER (ORDER BY SUM(units_sold) DESC) = 1", "", "superlative")
add("h19_s30", SI, "How many units do we sell per day in the East region on average?",
    "SELECT AVG(units_sold) AS avg_units FROM sales WHERE region = 'East'", 0,
    "SELECT AVG(u) FROM (SELECT date, SUM(units_sold) AS u FROM sales WHERE region = 'East' GROUP BY date)", "slightly different question: average per sales row, not per day", "different_question")

add("h19_c01", CA, "What was our total revenue in 2023?",
    "SELECT SUM(REVENUE) AS total_revenue FROM daily_revenue WHERE YEAR(DATE) = 2023", 1,
    "SELECT SUM(REVENUE) FROM daily_revenue WHERE DATE >= '2023-01-01' AND DATE < '2024-01-01'", "", "sum_year")
add("h19_c02", CA, "What is the total revenue for each region?",
    "SELECT r.Region, SUM(d.REVENUE) AS total_revenue FROM daily_revenue d JOIN region r ON d.Region_id = r.Region_id GROUP BY r.Region", 0,
    "SELECT r.Region, SUM(d.REVENUE) FROM daily_revenue d JOIN (SELECT DISTINCT Region_id, Region FROM region) r ON d.Region_id = r.Region_id GROUP BY r.Region", "join fan-out: region has one row per state, so each revenue row is counted five times", "join_fanout")
add("h19_c03", CA, "How much revenue did Electronics bring in overall?",
    "SELECT SUM(d.REVENUE) AS revenue FROM daily_revenue d JOIN product p ON d.Product_id = p.Product_id WHERE p.Product_line = 'Electronics'", 1,
    "SELECT SUM(REVENUE) FROM daily_revenue WHERE Product_id = (SELECT Product_id FROM product WHERE Product_line = 'Electronics')", "", "join_sum")
add("h19_c04", CA, "What was our gross profit (revenue minus cost of goods sold) in 2024?",
    "SELECT SUM(REVENUE - FORECASTED_REVENUE) AS gross_profit FROM daily_revenue WHERE YEAR(DATE) = 2024", 0,
    "SELECT SUM(REVENUE) - SUM(COGS) FROM daily_revenue WHERE YEAR(DATE) = 2024", "wrong column: subtracts FORECASTED_REVENUE instead of COGS", "wrong_column")
add("h19_c05", CA, "Which product line had the highest revenue in 2024?",
    "SELECT p.Product_line, SUM(d.REVENUE) AS revenue FROM daily_revenue d JOIN product p ON d.Product_id = p.Product_id WHERE YEAR(d.DATE) = 2024 GROUP BY p.Product_line ORDER BY revenue DESC LIMIT 1", 1,
    "SELECT p.Product_line, SUM(d.REVENUE) FROM daily_revenue d JOIN product p USING (Product_id) WHERE d.DATE >= '2024-01-01' AND d.DATE < '2025-01-01' GROUP BY 1 ORDER BY 2 DESC LIMIT 1", "", "superlative")
add("h19_c06", CA, "What was total revenue in the first quarter of 2024?",
    "SELECT SUM(REVENUE) AS revenue FROM daily_revenue WHERE DATE BETWEEN '2024-01-01' AND '2024-03-31'", 0,
    "SELECT SUM(REVENUE) FROM daily_revenue WHERE DATE >= '2024-01-01' AND DATE < '2024-04-01'", "off-by-one bound: DATE is a timestamp (15:07 each day), so BETWEEN ... '2024-03-31' drops 31 March", "off_by_one_bound")
add("h19_c07", CA, "Show monthly revenue for 2023 in calendar order.",
    "SELECT MONTH(DATE) AS month, SUM(REVENUE) AS revenue FROM daily_revenue WHERE YEAR(DATE) = 2023 GROUP BY MONTH(DATE) ORDER BY month", 1,
    "SELECT EXTRACT(month FROM DATE), SUM(REVENUE) FROM daily_revenue WHERE DATE >= '2023-01-01' AND DATE < '2024-01-01' GROUP BY 1 ORDER BY 1", "", "month_breakdown", True)
add("h19_c08", CA, "Which three days had the lowest revenue?",
    "SELECT CAST(DATE AS DATE) AS day, REVENUE FROM daily_revenue ORDER BY REVENUE DESC LIMIT 3", 0,
    "SELECT CAST(DATE AS DATE), REVENUE FROM daily_revenue ORDER BY REVENUE ASC LIMIT 3", "flipped order: DESC returns the highest-revenue days", "flipped_order")
add("h19_c09", CA, "On how many days did actual revenue beat the forecast?",
    "SELECT COUNT(*) AS days FROM daily_revenue WHERE REVENUE > FORECASTED_REVENUE", 1,
    "SELECT SUM(CASE WHEN REVENUE > FORECASTED_REVENUE THEN 1 ELSE 0 END) FROM daily_revenue", "", "count_filter")
add("h19_c10", CA, "What was total revenue in Europe?",
    "SELECT SUM(REVENUE) AS revenue FROM daily_revenue WHERE Region_id IN (SELECT Region_id FROM region WHERE Region = 'europe')", 0,
    "SELECT SUM(REVENUE) FROM daily_revenue WHERE Region_id IN (SELECT Region_id FROM region WHERE Region = 'Europe')", "wrong literal case: the stored value is 'Europe'", "wrong_literal_case")
add("h19_c11", CA, "What is the average daily revenue for Toys in South America?",
    "SELECT AVG(d.REVENUE) AS avg_revenue FROM daily_revenue d JOIN product p ON d.Product_id = p.Product_id WHERE p.Product_line = 'Toys' AND d.Region_id IN (SELECT Region_id FROM region WHERE Region = 'South America')", 1,
    "SELECT AVG(REVENUE) FROM daily_revenue WHERE Product_id = 4 AND Region_id = 4", "", "average_two_filters")
add("h19_c12", CA, "What was total revenue in November 2022?",
    "SELECT SUM(REVENUE) AS revenue FROM daily_revenue WHERE MONTH(DATE) = 11", 0,
    "SELECT SUM(REVENUE) FROM daily_revenue WHERE YEAR(DATE) = 2022 AND MONTH(DATE) = 11", "lost condition: the year is dropped, so November 2023 and 2024 are included", "lost_condition_year")
add("h19_c13", CA, "Which product lines made more than 450,000 in total revenue?",
    "SELECT p.Product_line FROM daily_revenue d JOIN product p ON d.Product_id = p.Product_id GROUP BY p.Product_line HAVING SUM(d.REVENUE) > 450000", 1,
    "SELECT Product_line FROM product WHERE Product_id IN (SELECT Product_id FROM daily_revenue GROUP BY Product_id HAVING SUM(REVENUE) > 450000)", "", "having")
add("h19_c14", CA, "How many different product lines had revenue in Africa?",
    "SELECT COUNT(p.Product_line) AS product_lines FROM daily_revenue d JOIN product p ON d.Product_id = p.Product_id WHERE d.Region_id = 5", 0,
    "SELECT COUNT(DISTINCT p.Product_line) FROM daily_revenue d JOIN product p ON d.Product_id = p.Product_id WHERE d.Region_id IN (SELECT Region_id FROM region WHERE Region = 'Africa')", "missing DISTINCT: counts revenue rows, not product lines", "missing_distinct")
add("h19_c15", CA, "Break down total revenue by product line.",
    "SELECT p.Product_line, SUM(d.REVENUE) AS revenue FROM daily_revenue d JOIN product p ON d.Region_id = p.Product_id GROUP BY p.Product_line", 0,
    "SELECT p.Product_line, SUM(d.REVENUE) FROM daily_revenue d JOIN product p ON d.Product_id = p.Product_id GROUP BY p.Product_line", "wrong join key: Region_id joined to Product_id", "wrong_join_key")

add("h19_m01", MF, "How many cancellation transactions were there?",
    "SELECT COUNT(*) AS cancellations FROM transactions_seed WHERE transaction_type_name = 'cancellation'", 1,
    "SELECT COUNT(id_transaction) FROM transactions_seed WHERE transaction_type_name = 'cancellation'", "", "count")
add("h19_m02", MF, "How many quick buys were made?",
    "SELECT COUNT(*) AS quick_buys FROM transactions_seed WHERE transaction_type_name = 'quick_buy'", 0,
    "SELECT COUNT(*) FROM transactions_seed WHERE transaction_type_name = 'quick-buy'", "wrong literal: stored value is 'quick-buy' with a hyphen", "wrong_literal")
add("h19_m03", MF, "What is the total transaction amount by customer country?",
    "SELECT c.country, SUM(t.transaction_amount_usd) AS total_usd FROM transactions_seed t JOIN customers_seed c ON t.id_customer = c.id_customer GROUP BY c.country", 1,
    "SELECT c.country, SUM(t.transaction_amount_usd) FROM customers_seed c JOIN transactions_seed t USING (id_customer) GROUP BY 1", "", "join_breakdown")
add("h19_m04", MF, "What is the total transaction amount from customers in Europe?",
    "SELECT SUM(t.transaction_amount_usd) AS total_usd FROM transactions_seed t JOIN customers_seed c ON t.ds = c.ds JOIN countries_seed k ON c.country = k.country WHERE k.region = 'EU'", 0,
    "SELECT SUM(t.transaction_amount_usd) FROM transactions_seed t JOIN customers_seed c ON t.id_customer = c.id_customer JOIN countries_seed k ON c.country = k.country WHERE k.region = 'EU'", "wrong join key: transactions joined to customers on the date column ds instead of id_customer", "wrong_join_key")
add("h19_m05", MF, "How many distinct orders are there?",
    "SELECT COUNT(DISTINCT id_order) AS orders FROM transactions_seed", 1,
    "SELECT COUNT(*) FROM (SELECT DISTINCT id_order FROM transactions_seed)", "", "count_distinct")
add("h19_m06", MF, "How many customers made at least one buy transaction?",
    "SELECT COUNT(id_customer) AS customers FROM transactions_seed WHERE transaction_type_name = 'buy'", 0,
    "SELECT COUNT(DISTINCT id_customer) FROM transactions_seed WHERE transaction_type_name = 'buy'", "missing DISTINCT: counts buy transactions, not customers", "missing_distinct")
add("h19_m07", MF, "Which customer spent the most on buy transactions?",
    "SELECT id_customer, SUM(transaction_amount_usd) AS spent FROM transactions_seed WHERE transaction_type_name = 'buy' GROUP BY id_customer ORDER BY spent DESC LIMIT 1", 1,
    "SELECT id_customer, SUM(transaction_amount_usd) FROM transactions_seed WHERE transaction_type_name = 'buy' GROUP BY 1 QUALIFY rank() OVER (ORDER BY SUM(transaction_amount_usd) DESC) = 1", "", "superlative")
add("h19_m08", MF, "What was the total transaction amount in March 2022?",
    "SELECT SUM(transaction_amount_usd) AS total_usd FROM transactions_seed WHERE ds >= '2022-03-01' AND ds < '2022-03-31'", 0,
    "SELECT SUM(transaction_amount_usd) FROM transactions_seed WHERE ds >= '2022-03-01' AND ds < '2022-04-01'", "off-by-one bound: < '2022-03-31' drops 31 March", "off_by_one_bound")
add("h19_m09", MF, "What is the average amount of an alteration transaction?",
    "SELECT AVG(transaction_amount_usd) AS avg_usd FROM transactions_seed WHERE transaction_type_name = 'alteration'", 1,
    "SELECT SUM(transaction_amount_usd) / COUNT(*) FROM transactions_seed WHERE transaction_type_name = 'alteration'", "", "average")
add("h19_m10", MF, "What is the total amount of all transactions that were not cancellations?",
    "SELECT SUM(transaction_amount_usd) AS total_usd FROM transactions_seed", 0,
    "SELECT SUM(transaction_amount_usd) FROM transactions_seed WHERE transaction_type_name <> 'cancellation'", "lost condition: the negated filter on cancellations is dropped", "lost_condition")
add("h19_m11", MF, "Which customers signed up on March 7, 2022?",
    "SELECT id_customer FROM customers_seed WHERE ds = DATE '2022-03-07'", 1,
    "SELECT id_customer FROM customers_seed WHERE year(ds) = 2022 AND month(ds) = 3 AND day(ds) = 7", "", "date_filter")
add("h19_m12", MF, "How many customers are from North America?",
    "SELECT COUNT(*) AS customers FROM transactions_seed t JOIN customers_seed c ON t.id_customer = c.id_customer JOIN countries_seed k ON c.country = k.country WHERE k.region = 'NA'", 0,
    "SELECT COUNT(*) FROM customers_seed c JOIN countries_seed k ON c.country = k.country WHERE k.region = 'NA'", "counting the wrong table: counts their transactions, not customers", "wrong_table_counted")
add("h19_m13", MF, "How many transactions are there of each type?",
    "SELECT transaction_type_name, COUNT(*) AS n FROM transactions_seed GROUP BY transaction_type_name", 1,
    "SELECT transaction_type_name, COUNT(id_transaction) FROM transactions_seed GROUP BY 1", "", "breakdown")
add("h19_m14", MF, "What was the largest single transaction by customer c500002?",
    "SELECT SUM(transaction_amount_usd) AS largest FROM transactions_seed WHERE id_customer = 'c500002'", 0,
    "SELECT MAX(transaction_amount_usd) FROM transactions_seed WHERE id_customer = 'c500002'", "wrong aggregate: SUM instead of MAX", "wrong_aggregate")
add("h19_m15", MF, "Which customers made both a buy and a cancellation?",
    "SELECT id_customer FROM transactions_seed WHERE transaction_type_name IN ('buy', 'cancellation') GROUP BY id_customer HAVING COUNT(DISTINCT transaction_type_name) = 2", 1,
    "SELECT id_customer FROM transactions_seed WHERE transaction_type_name = 'buy' INTERSECT SELECT id_customer FROM transactions_seed WHERE transaction_type_name = 'cancellation'", "", "both")
