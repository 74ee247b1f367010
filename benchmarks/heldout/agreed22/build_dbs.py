"""Builds the databases check.py reads, under /tmp/h22 (run once before check.py)."""
import glob
import os
from pathlib import Path

import duckdb
from assay.bench.datasets import build_tpc

OUT = Path("/tmp/h22")
OUT.mkdir(parents=True, exist_ok=True)
for name in ("tpcds", "tpch"):
    if not (OUT / f"{name}.duckdb").exists():
        build_tpc(name, 0.01, OUT / f"{name}.duckdb")
S = "/work/shared/data/semantic-models/"
for name, folder in [("si", "sfguide-snowflake-intelligence/data"), ("ca", "sfguide-cortex-analyst/data"),
                     ("mf", "metricflow-tutorial/dbt-metricflow/dbt_metricflow/cli/sample_dbt_models/seeds")]:
    path = OUT / f"{name}.duckdb"
    if path.exists():
        os.remove(path)
    con = duckdb.connect(str(path))
    for csv in sorted(glob.glob(S + folder + "/*.csv")):
        stem = os.path.basename(csv)[:-4]
        con.execute(f"CREATE TABLE \"{stem}\" AS SELECT * FROM read_csv_auto('{csv}')")
    con.close()
print("built", sorted(p.name for p in OUT.glob("*.duckdb")))
