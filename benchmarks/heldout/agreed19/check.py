import duckdb, glob, os, json, sys
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = '/work/shared/data/semantic-models'
DBS = {
 "{csv:sfguide-snowflake-intelligence/data}": ROOT + '/sfguide-snowflake-intelligence/data',
 "{csv:sfguide-cortex-analyst/data}": ROOT + '/sfguide-cortex-analyst/data',
 "{csv:metricflow-tutorial/dbt-metricflow/dbt_metricflow/cli/sample_dbt_models/seeds}": ROOT + '/metricflow-tutorial/dbt-metricflow/dbt_metricflow/cli/sample_dbt_models/seeds',
}
OUT = '/tmp/h19/check'
os.makedirs(OUT, exist_ok=True)
def build(key, folder):
    p = os.path.join(OUT, os.path.basename(os.path.dirname(folder)) + '.duckdb')
    if os.path.exists(p): os.remove(p)
    c = duckdb.connect(p)
    for f in sorted(glob.glob(folder + '/*.csv')):
        stem = os.path.basename(f)[:-4]
        c.execute(f"CREATE TABLE {stem} AS SELECT * FROM read_csv_auto('{f}')")
    c.close()
    return duckdb.connect(p, read_only=True)
CON = {k: build(k, v) for k, v in DBS.items()}
def norm(rows):
    out = []
    for r in rows:
        out.append(tuple(round(float(v), 4) if isinstance(v, (int, float)) and not isinstance(v, bool) else (None if v is None else str(v)) for v in r))
    return out
def load(n):
    return [json.loads(l) for l in open(os.path.join(HERE, n))]
S = load('samples.jsonl'); G = {g['id']: g for g in load('gold.jsonl')}; M = {m['id']: m for m in load('meta.jsonl')}
bad = 0
for s in S:
    i = s['id']; c = CON[s['db']]
    sqls = {x['final_sql'] for x in s['samples']}
    assert len(s['samples']) == 5 and len(sqls) == 1, i
    assert '--' not in s['samples'][0]['final_sql'] and '/*' not in s['samples'][0]['final_sql'], i
    a = norm(c.execute(s['samples'][0]['final_sql']).fetchall())
    g = norm(c.execute(G[i]['gold_sql']).fetchall())
    if M[i]['ordered']:
        same = a == g
    else:
        same = sorted(a, key=repr) == sorted(g, key=repr)
    ok = same == (s['label'] == 1)
    if not ok:
        bad += 1
    print(('OK  ' if ok else 'FAIL'), i, s['label'], M[i]['kind'], a[:3], '| gold', g[:3])
lab = [s['label'] for s in S]
print(f"records={len(S)} right={sum(lab)} wrong={len(lab)-sum(lab)} failures={bad}")
sys.exit(1 if bad else 0)
