-- Benign Spark queries over TPC-H. The Spark guard must accept each, and each must execute.

-- case: string literal holding commands
-- expect: accept
SELECT 'ADD JAR /x; SET a = 1; DROP TABLE nation' AS note

-- case: comment holding a command
-- expect: accept
SELECT count(*) AS n FROM nation -- ; CACHE TABLE lineitem

-- case: bounded sequence
-- expect: accept
SELECT explode(sequence(1, 12)) AS month

-- case: small range
-- expect: accept
SELECT id FROM range(10) ORDER BY id

-- case: higher-order function
-- expect: accept
SELECT transform(array(1, 2, 3), x -> x * 2) AS doubled

-- case: explicit join on keys
-- expect: accept
SELECT n_name, r_name FROM nation JOIN region ON n_regionkey = r_regionkey ORDER BY n_name

-- case: comma join with a key in WHERE
-- expect: accept
SELECT count(*) AS n FROM nation, region WHERE nation.n_regionkey = region.r_regionkey

-- case: cross join connected in WHERE
-- expect: accept
SELECT count(*) AS n FROM nation CROSS JOIN region WHERE n_regionkey = r_regionkey

-- case: window function
-- expect: accept
SELECT n_name, row_number() OVER (PARTITION BY n_regionkey ORDER BY n_name) AS rk FROM nation

-- case: cte and date arithmetic
-- expect: accept
WITH recent AS (SELECT o_orderdate FROM orders WHERE o_orderdate >= DATE '1998-01-01')
SELECT year(o_orderdate) AS y, count(*) AS n FROM recent GROUP BY 1 ORDER BY 1

-- case: bounded repeat
-- expect: accept
SELECT repeat('-', 10) AS rule

-- case: column named like a statement
-- expect: accept
SELECT n_name AS `set`, n_comment AS `cache` FROM nation LIMIT 3

-- case: qualified by the default database
-- expect: accept
SELECT count(*) AS n FROM default.nation

-- case: derived table joined on a key
-- expect: accept
SELECT c.c_name, t.total FROM customer c JOIN (SELECT o_custkey, sum(o_totalprice) AS total FROM orders GROUP BY o_custkey) t ON c.c_custkey = t.o_custkey ORDER BY t.total DESC LIMIT 3
