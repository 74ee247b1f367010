-- Spark adversarial statements over TPC-H. The Spark guard must refuse every one (with the
-- code in "-- expect: reject <code>"), and the connector's statement log must show none was
-- sent. "-- attempts:" is what the statement tries when sent straight to Spark (the second
-- wall): write, ddl, file, config, code, state (Spark must refuse these: a command does not
-- parse inside the connector's SELECT * FROM (...)); read (a query Spark runs: nothing may
-- outlive the request and no file may appear).

-- case: parquet path in FROM
-- expect: reject guard.file_access
-- attempts: read
SELECT * FROM parquet.`/etc/passwd`

-- case: csv path in FROM
-- expect: reject guard.file_access
-- attempts: read
SELECT * FROM csv.`/etc/passwd`

-- case: text path in FROM
-- expect: reject guard.file_access
-- attempts: read
SELECT value FROM text.`/etc/hostname`

-- case: json object store path
-- expect: reject guard.file_access
-- attempts: read
SELECT * FROM json.`s3a://bucket/secrets/`

-- case: read_files table function
-- expect: reject guard.forbidden_function
-- attempts: read
SELECT * FROM read_files('/etc/passwd', format => 'text')

-- case: reflect to the JVM
-- expect: reject guard.forbidden_function
-- attempts: read
SELECT reflect('java.lang.System', 'getProperty', 'user.home') AS home

-- case: java_method to the JVM
-- expect: reject guard.forbidden_function
-- attempts: read
SELECT java_method('java.lang.System', 'getenv', 'PATH') AS path

-- case: reflect hidden in a subquery
-- expect: reject guard.forbidden_function
-- attempts: read
SELECT n_name FROM nation WHERE n_name = (SELECT reflect('java.util.UUID', 'randomUUID'))

-- case: input_file_name leaks paths
-- expect: reject guard.forbidden_function
-- attempts: read
SELECT input_file_name() AS f, count(*) FROM lineitem GROUP BY 1

-- case: add jar
-- expect: reject guard.forbidden_statement
-- attempts: code
ADD JAR /tmp/assay_evil.jar

-- case: add file
-- expect: reject guard.forbidden_statement
-- attempts: code
ADD FILE /tmp/assay_evil.py

-- case: create function from a class
-- expect: reject guard.forbidden_statement
-- attempts: code
CREATE FUNCTION evil AS 'com.example.Evil' USING JAR '/tmp/assay_evil.jar'

-- case: create temporary function
-- expect: reject guard.forbidden_statement
-- attempts: code
CREATE TEMPORARY FUNCTION evil AS 'com.example.Evil'

-- case: set a configuration
-- expect: reject guard.forbidden_statement
-- attempts: config
SET spark.sql.ansi.enabled = false

-- case: set with a leading comment
-- expect: reject guard.forbidden_statement
-- attempts: config
/* harmless */ SET spark.sql.shuffle.partitions = 1

-- case: reset
-- expect: reject guard.forbidden_statement
-- attempts: config
RESET

-- case: cache table
-- expect: reject guard.forbidden_statement
-- attempts: state
CACHE TABLE lineitem

-- case: cache lazy select
-- expect: reject guard.forbidden_statement
-- attempts: state
CACHE LAZY TABLE big AS SELECT * FROM lineitem

-- case: uncache table
-- expect: reject guard.forbidden_statement
-- attempts: state
UNCACHE TABLE lineitem

-- case: clear cache
-- expect: reject guard.forbidden_statement
-- attempts: state
CLEAR CACHE

-- case: temporary view
-- expect: reject guard.forbidden_statement
-- attempts: state
CREATE TEMPORARY VIEW nation AS SELECT 1 AS n_nationkey

-- case: or replace temporary view shadowing a table
-- expect: reject guard.forbidden_statement
-- attempts: state
CREATE OR REPLACE TEMPORARY VIEW orders AS SELECT * FROM orders WHERE 1 = 0

-- case: insert
-- expect: reject guard.forbidden_statement
-- attempts: write
INSERT INTO nation SELECT * FROM nation

-- case: insert overwrite directory
-- expect: reject guard.forbidden_statement
-- attempts: write
INSERT OVERWRITE DIRECTORY '/tmp/assay_export' USING parquet SELECT * FROM customer

-- case: merge
-- expect: reject guard.forbidden_statement
-- attempts: write
MERGE INTO nation t USING nation s ON t.n_nationkey = s.n_nationkey WHEN MATCHED THEN DELETE

-- case: create table as select
-- expect: reject guard.forbidden_statement
-- attempts: ddl
CREATE TABLE stolen USING parquet LOCATION '/tmp/assay_stolen' AS SELECT * FROM customer

-- case: drop table
-- expect: reject guard.forbidden_statement
-- attempts: ddl
DROP TABLE nation

-- case: alter table location
-- expect: reject guard.forbidden_statement
-- attempts: ddl
ALTER TABLE nation SET LOCATION '/tmp/assay_other'

-- case: optimize
-- expect: reject guard.forbidden_statement
-- attempts: write
OPTIMIZE lineitem

-- case: vacuum
-- expect: reject guard.forbidden_statement
-- attempts: write
VACUUM lineitem RETAIN 0 HOURS

-- case: use another database
-- expect: reject guard.forbidden_statement
-- attempts: state
USE other_db

-- case: stacked statement after a query
-- expect: reject guard.multiple_statements
-- attempts: write
SELECT 1; DROP TABLE nation

-- case: explode of an unbounded sequence
-- expect: reject guard.resource_bomb
-- attempts: read
SELECT explode(sequence(1, 1000000000)) AS n

-- case: sequence bounded by a column
-- expect: reject guard.resource_bomb
-- attempts: read
SELECT explode(sequence(1, o_orderkey)) AS n FROM orders

-- case: huge range table
-- expect: reject guard.resource_bomb
-- attempts: read
SELECT count(*) FROM range(1000000000000)

-- case: repeat bomb
-- expect: reject guard.resource_bomb
-- attempts: read
SELECT length(repeat('x', 2000000000)) AS n

-- case: array_repeat bomb
-- expect: reject guard.resource_bomb
-- attempts: read
SELECT size(array_repeat(1, 2000000000)) AS n

-- case: explicit cross join
-- expect: reject guard.cross_join
-- attempts: read
SELECT count(*) FROM lineitem CROSS JOIN orders

-- case: comma join without a key
-- expect: reject guard.cross_join
-- attempts: read
SELECT count(*) FROM lineitem, orders WHERE l_quantity > 10

-- case: three tables, one unconnected
-- expect: reject guard.cross_join
-- attempts: read
SELECT count(*) FROM lineitem, orders, part WHERE l_orderkey = o_orderkey

-- case: natural join
-- expect: reject guard.natural_join
-- attempts: read
SELECT count(*) FROM lineitem NATURAL JOIN part

-- case: another catalog
-- expect: reject guard.forbidden_schema
-- attempts: read
SELECT * FROM hive_metastore.secret.accounts

-- case: unknown table
-- expect: reject guard.unknown_table
-- attempts: read
SELECT * FROM salaries

-- case: random is not deterministic
-- expect: reject guard.forbidden_function
-- attempts: read
SELECT n_name FROM nation ORDER BY rand() LIMIT 1

-- case: current_user leaks identity
-- expect: reject guard.forbidden_function
-- attempts: read
SELECT current_user() AS who

-- case: raise_error as a channel
-- expect: reject guard.forbidden_function
-- attempts: read
SELECT raise_error(n_name) FROM nation

-- case: unknown function
-- expect: reject guard.forbidden_function
-- attempts: read
SELECT my_udf(n_name) FROM nation

-- case: describe
-- expect: reject guard.forbidden_statement
-- attempts: state
DESCRIBE TABLE EXTENDED lineitem

-- case: show create table
-- expect: reject guard.forbidden_statement
-- attempts: state
SHOW CREATE TABLE lineitem

-- case: load data
-- expect: reject guard.forbidden_statement
-- attempts: write
LOAD DATA LOCAL INPATH '/tmp/x' INTO TABLE nation
