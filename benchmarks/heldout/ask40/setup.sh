#!/usr/bin/env bash
# Rebuild every database and layer of the held-out set from nothing, into /tmp/hask40.
# Usage: bash setup.sh [/path/to/worktree]   (default /work/wt-hask40; uses its .venv)
set -euo pipefail
WT=${1:-/work/wt-hask40}
A="$WT/.venv/bin/assay"; PY="$WT/.venv/bin/python"
SM=/work/shared/data/semantic-models
SP=/work/shared/data/spider-slice/database
O=/tmp/hask40
rm -rf "$O"; mkdir -p "$O"
cd "$O"

# 1. TPC-H and TPC-DS sf 0.01, each with a drafted layer (facts recorded in a store)
"$A" bench tpc tpch --sf 0.01 --out tpch.duckdb
"$A" bench tpc tpcds --sf 0.01 --out tpcds.duckdb
"$A" catalog profile --db tpch.duckdb --store tpch.facts.sqlite --out tpch.profile.json
"$A" semantic init --db tpch.duckdb --store tpch.facts.sqlite --out tpch.yaml
"$A" catalog profile --db tpcds.duckdb --store tpcds.facts.sqlite --out tpcds.profile.json
"$A" semantic init --db tpcds.duckdb --store tpcds.facts.sqlite --out tpcds.yaml
"$A" semantic check --db tpch.duckdb --semantic tpch.yaml
"$A" semantic check --db tpcds.duckdb --semantic tpcds.yaml

# 2. Imports of real semantic models, with their data
# 2a. MetricFlow tutorial (seed CSVs; README section 1)
"$PY" - <<PYEOF
import duckdb
sm = "$SM/metricflow-tutorial/dbt-metricflow/dbt_metricflow/cli/sample_dbt_models"
import glob, os
con = duckdb.connect("mf_tutorial.duckdb")
for name in ("transactions", "customers", "countries"):
    f = glob.glob(f"$SM/metricflow-tutorial/**/{name}_seed.csv", recursive=True)[0]
    con.execute(f"CREATE TABLE {name}_seed AS SELECT * FROM read_csv_auto('{f}', header=true)")
    con.execute(f"CREATE TABLE {name} AS SELECT * FROM {name}_seed")
con.execute("CREATE TABLE all_days AS SELECT range::DATE AS date_day FROM range(DATE '2022-01-01', DATE '2023-01-01', INTERVAL 1 DAY)")
con.close()
PYEOF
MFDIR=$(dirname "$(find "$SM/metricflow-tutorial" -name metrics.yml | head -1)")
"$A" semantic import --from metricflow --source "$MFDIR" --db mf_tutorial.duckdb --out mf_tutorial.yaml

# 2b. Cortex Analyst quickstart (README section 3: schema revenue_timeseries, loaded by position)
"$PY" - <<PYEOF
import duckdb
d = "$SM/sfguide-cortex-analyst/data"
con = duckdb.connect("cortex.duckdb")
con.execute("CREATE SCHEMA revenue_timeseries")
con.execute("CREATE TABLE revenue_timeseries.daily_revenue(date DATE, revenue FLOAT, cogs FLOAT, forecasted_revenue FLOAT, product_id INT, region_id INT)")
con.execute(f"INSERT INTO revenue_timeseries.daily_revenue SELECT CAST(CAST(column0 AS TIMESTAMP) AS DATE), column1, column2, column3, column4, column5 FROM read_csv('{d}/daily_revenue.csv', header=true, columns={{'column0':'VARCHAR','column1':'DOUBLE','column2':'DOUBLE','column3':'DOUBLE','column4':'INT','column5':'INT'}})")
con.execute("CREATE TABLE revenue_timeseries.product_dim(product_id INT, product_line VARCHAR)")
con.execute(f"INSERT INTO revenue_timeseries.product_dim SELECT * FROM read_csv('{d}/product.csv', header=true, columns={{'a':'INT','b':'VARCHAR'}})")
con.execute("CREATE TABLE revenue_timeseries.region_dim(region_id INT, sales_region VARCHAR, state VARCHAR)")
con.execute(f"INSERT INTO revenue_timeseries.region_dim SELECT * FROM read_csv('{d}/region.csv', header=true, columns={{'a':'INT','b':'VARCHAR','c':'VARCHAR'}})")
con.close()
PYEOF
"$A" semantic import --from cortex --source "$SM/sfguide-cortex-analyst/revenue_timeseries.yaml" --db cortex.duckdb --out cortex.yaml

# 2c. Cube workshop over TPC-H (README section 7; the import drops the tpch. prefix)
cp tpch.duckdb cube_tpch.duckdb
"$A" semantic import --from cube --source "$SM/cube-workshop-tpch/static/cube-models/1-starter/model/cubes" --db cube_tpch.duckdb --out cube.yaml

# 2d. OSI TPC-DS example (README section 6; tables in main)
cp tpcds.duckdb osi_tpcds.duckdb
"$A" semantic import --from osi --source "$SM/osi/examples/tpcds_semantic_model.yaml" --db osi_tpcds.duckdb --out osi.yaml

# 3. Spider slice databases with drafted layers
for db in car_1 pets_1; do
  cp "$SP/$db/$db.sqlite" "$db.sqlite"
  "$A" semantic init --db "$db.sqlite" --store "$db.facts.sqlite" --out "$db.yaml"
done

# 4. The demo warehouse `assay ask` uses with no configuration (built on first use)
"$A" ask "What was the gross revenue in 2023?" > demo_first.txt || true
"$A" semantic show > demo_show.txt
# a copy of the demo warehouse for the gold SQL (the cache assay ask builds on first use)
C=${ASSAY_CACHE_DIR:-$HOME/.cache/assay}
cp "$(ls -d "$C"/shop-seed*/shop.duckdb | head -1)" demo_shop.duckdb
echo "setup done: $O"
