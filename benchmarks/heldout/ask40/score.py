"""Score `assay ask` on the held-out set.

usage: python score.py /path/to/assay OUT.jsonl [questions.jsonl]
Runs each question through `assay ask --json` (with the target's --db/--semantic), records the
verdict and rows in OUT.jsonl as it goes (rerunnable: questions already in OUT are skipped),
compares shown rows with gold_sql's rows and prints ONLY counts.
"""
import collections, datetime, decimal, itertools, json, math, os, re, sqlite3, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run_gold(db, sql):
    if db.endswith(".sqlite"):
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            return [list(r) for r in con.execute(sql).fetchall()]
        finally:
            con.close()
    import duckdb
    con = duckdb.connect(db, read_only=True)
    try:
        return [list(r) for r in con.execute(sql).fetchall()]
    finally:
        con.close()


DATE_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[ T]00:00(?::00(?:\.0+)?)?(?:Z|[+-]00:?00)?)?$")
MONTH_RE = re.compile(r"^(\d{4})-(\d{2})$")


def norm(v):
    if v is None:
        return None
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float, decimal.Decimal)):
        return round(float(v), 4)
    if isinstance(v, datetime.datetime):
        v = v.isoformat(sep=" ")
    elif isinstance(v, datetime.date):
        return v.isoformat()
    s = str(v).strip()
    m = DATE_RE.match(s)
    if m:
        return f"{m.group(1)}-{m.group(2)}-{m.group(3)}"
    m = MONTH_RE.match(s)
    if m:
        return f"{m.group(1)}-{m.group(2)}-01"
    try:
        return round(float(s.replace(",", "")), 4) if re.fullmatch(r"-?[\d,]*\.?\d+(e-?\d+)?", s) else s.lower()
    except ValueError:
        return s.lower()


def eq(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return a == b or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-4)
    return a == b


def key(v):  # a hashable, tolerant sort key
    if isinstance(v, float):
        return (0, round(v, 3), "")
    return (1, 0, "" if v is None else str(v))


def rows_match(gold, got, order):
    if len(gold) != len(got):
        return False
    if order:
        return all(all(eq(a, b) for a, b in zip(g, r)) for g, r in zip(gold, got))
    gs = sorted(gold, key=lambda r: [key(x) for x in r])
    rs = sorted(got, key=lambda r: [key(x) for x in r])
    return all(all(eq(a, b) for a, b in zip(g, r)) for g, r in zip(gs, rs))


def compare(gold, cols_rows, order):
    """gold: list of normalized rows; cols_rows: normalized rows shown. Columns: any injective
    mapping of gold's columns into the shown ones (names ignored, extra shown columns allowed)."""
    got = cols_rows
    if not got:
        return False, "no rows shown"
    ng, nr = len(gold[0]), len(got[0])
    if ng == 1 and len(gold) == 1:  # a single number: any cell of a one-row answer
        if len(got) == 1 and any(eq(gold[0][0], c) for c in got[0]):
            return True, "single value"
        return False, "single value differs"
    if nr < ng:
        return False, f"{nr} columns shown, {ng} in gold"
    for perm in itertools.permutations(range(nr), ng):
        proj = [[r[i] for i in perm] for r in got]
        if rows_match(gold, proj, order):
            return True, "rows match"
        # zero-filled groups the gold query has no row for (e.g. empty days) are not errors
        gold_keys = {tuple(key(x) for x in g if not isinstance(x, float)) for g in gold}
        trimmed = [p for p in proj if not (all(x == 0 for x in p if isinstance(x, float))
                   and any(isinstance(x, float) for x in p)
                   and tuple(key(x) for x in p if not isinstance(x, float)) not in gold_keys)]
        if len(trimmed) != len(proj) and rows_match(gold, trimmed, order):
            return True, "rows match (zero-filled groups dropped)"
    return False, "rows differ"


def ask(assay, q):
    cmd = [assay, "ask", "--json"]
    t = q["target"]
    if t.get("db"):
        cmd += ["--db", t["db"]]
    if t.get("semantic"):
        cmd += ["--semantic", t["semantic"]]
    cmd.append(q["question"])
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=180, cwd="/tmp")
    except subprocess.TimeoutExpired:
        return None, "timeout"
    try:
        return json.loads(p.stdout), None
    except json.JSONDecodeError:
        return None, f"rc={p.returncode} no JSON: {(p.stderr or p.stdout)[-300:]}"


KIND = {"clarify": "ask_back", "abstain": "abstain", "refuse": "refuse"}


def classify(q, v, err):
    rec = {"id": q["id"], "target": q["target"]["name"], "expect": q["expect"]}
    if v is None:
        rec.update(cls="error", detail=err)
        return rec
    behaviour, action = v.get("behaviour"), v.get("action")
    res = v.get("result") or {}
    rows = res.get("rows") or []
    rec.update(behaviour=behaviour, action=action, route=v.get("route"), reasons=v.get("reasons"),
               text=v.get("text"), sql=v.get("sql"), columns=res.get("columns"), rows=rows[:50])
    shown = behaviour == "answer" and action in ("show", "warn")
    got_kind = KIND.get(behaviour, "withheld" if behaviour == "answer" else str(behaviour))
    if q["expect"] == "answer":
        if not shown:
            rec.update(cls="answer_withheld", got_kind=got_kind)
            return rec
        gold = [[norm(x) for x in r] for r in run_gold(q["target"]["gold_db"], q["gold_sql"])]
        ok, detail = compare(gold, [[norm(x) for x in r] for r in rows], q.get("order_matters", False))
        rec.update(cls="shown_right" if ok else "shown_wrong", detail=detail, gold_rows=gold[:50])
        return rec
    if shown:
        rec.update(cls="shown_non_answer")
    else:
        rec.update(cls="correct_non_answer", got_kind=got_kind, kind_match=(got_kind == q["expect"]))
    return rec


def main():
    assay, out = sys.argv[1], sys.argv[2]
    qpath = sys.argv[3] if len(sys.argv) > 3 else os.path.join(HERE, "questions.jsonl")
    qs = [json.loads(l) for l in open(qpath) if l.strip()]
    done = {}
    if os.path.exists(out):
        for l in open(out):
            if l.strip():
                r = json.loads(l)
                done[r["id"]] = r
    with open(out, "a") as f:
        for q in qs:
            if q["id"] in done:
                continue
            v, err = ask(assay, q)
            rec = classify(q, v, err)
            f.write(json.dumps(rec, default=str) + "\n")
            f.flush()
            done[q["id"]] = rec
    recs = [done[q["id"]] for q in qs if q["id"] in done]
    by_cls = collections.Counter(r["cls"] for r in recs)
    print(f"questions scored: {len(recs)}")
    for c in ("shown_right", "shown_wrong", "answer_withheld", "correct_non_answer", "shown_non_answer", "error"):
        print(f"  {c}: {by_cls.get(c, 0)}")
    sw = collections.Counter((r["cls"], r.get("action")) for r in recs
                             if r["cls"] in ("shown_right", "shown_wrong", "shown_non_answer"))
    print("shown, by show vs warn:")
    for c in ("shown_right", "shown_wrong", "shown_non_answer"):
        print(f"  {c}: show {sw.get((c, 'show'), 0)}, warn {sw.get((c, 'warn'), 0)}")
    cf = sum(1 for r in recs if r.get("route") == "confirm_first" and r["cls"].startswith("shown"))
    print(f"  shown answers routed confirm_first: {cf}")
    km = collections.Counter((r["expect"], r.get("kind_match")) for r in recs if r["cls"] == "correct_non_answer")
    print("correct_non_answer, kind matched / not, by expected kind:")
    for k in ("ask_back", "abstain", "refuse"):
        print(f"  {k}: matched {km.get((k, True), 0)}, other non-answer {km.get((k, False), 0)}")
    wk = collections.Counter(r.get("got_kind") for r in recs if r["cls"] == "answer_withheld")
    print("answer_withheld, by what was given:", ", ".join(f"{k} {v}" for k, v in sorted(wk.items())) or "none")
    exp = collections.Counter(r["expect"] for r in recs)
    print("by expected kind:", ", ".join(f"{k} {exp[k]}" for k in ("answer", "ask_back", "abstain", "refuse")))


if __name__ == "__main__":
    main()
