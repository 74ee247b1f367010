"""Every endpoint and every error code of the HTTP API, against the demo warehouse."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from assay.service import CSRF_COOKIE, CSRF_HEADER, ERROR_CODES, Service, create_app
from tests.service.conftest import make_service

SHOW_Q = "What was the gross revenue in 2023?"


def _error(response: Any, status: int, code: str) -> dict[str, Any]:
    """The one error shape, with the expected status and code."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"ok", "error", "request_id"}
    assert body["ok"] is False
    assert set(body["error"]) == {"code", "message", "hint", "details"}
    assert body["error"]["code"] == code
    assert body["error"]["message"]
    assert response.headers["x-request-id"] == body["request_id"]
    assert ERROR_CODES[code][0] == status
    return body


def test_ask_shows_and_records(client: TestClient, service: Service) -> None:
    before = service.ledger.counts().verdicts
    body = client.post("/api/ask", json={"question": SHOW_Q}).json()
    assert body["ok"] is True and body["badge"] == "show"
    assert body["verdict"]["behaviour"] == "answer" and body["verdict"]["action"] == "show"
    assert "gross revenue" in body["reading"] and "2023" in body["reading"]
    assert body["policy"]["kind"] == "thresholds"
    assert body["answer"]["text"] == body["verdict"]["text"] and body["answer"]["result"]
    stored = service.ledger.verdict(body["verdict"]["id"])
    assert stored is not None and stored["verdict"] == body["verdict"]
    assert stored["verdict"]["rule"]["version"] and stored["verdict"]["policy"]["version"]
    assert service.ledger.counts().verdicts == before + 1


@pytest.mark.parametrize(
    ("question", "badge", "reason"),
    [
        ("What was revenue in 2023?", "ask back", "behaviour.ambiguous_metric"),
        ("What was the gross revenue in 2019?", "abstain", "behaviour.period_outside_coverage"),
        ("Delete all cancelled orders.", "refuse", "intent.write"),
        ("What was the latest ship date in 2023?", "withhold", "veto.stand_in_returned"),
    ],
    ids=["clarify", "abstain", "refuse", "withhold"],
)
def test_ask_behaviours(client: TestClient, question: str, badge: str, reason: str) -> None:
    body = client.post("/api/ask", json={"question": question}).json()
    assert body["badge"] == badge
    assert reason in body["verdict"]["reasons"]
    assert body["answer"] is None  # nothing to put before a person


def test_clarify_offers_choices_that_answer(client: TestClient) -> None:
    body = client.post("/api/ask", json={"question": "What was revenue in 2023?"}).json()
    labels = [c["label"] for c in body["choices"]]
    assert labels == ["gross revenue", "net revenue"]
    again = client.post("/api/ask", json={"question": body["choices"][1]["question"]}).json()
    assert again["badge"] == "show" and "net revenue" in again["reading"]


def test_follow_up_inherits_the_reading(client: TestClient, service: Service) -> None:
    first = client.post("/api/ask", json={"question": SHOW_Q}).json()
    ident = first["verdict"]["id"]
    later = client.post("/api/ask", json={"question": "and in 2024?", "follow_up_of": ident})
    body = later.json()
    assert body["follow_up"]["question"] == "What was the gross revenue in 2024?"
    assert body["follow_up"]["replaced"] == ["period 2023 -> 2024"]
    assert "metric gross revenue" in body["follow_up"]["inherited"]
    assert body["verdict"]["provenance"]["period"] == "2024"
    grouped = client.post("/api/ask", json={"question": "by country", "follow_up_of": ident})
    gbody = grouped.json()
    assert gbody["verdict"]["provenance"]["group_by"] == "country"
    assert "period 2023" in gbody["follow_up"]["inherited"]
    stored = service.ledger.verdict(gbody["verdict"]["id"])
    assert stored is not None and stored["follow_up_of"] == ident


def test_a_follow_up_word_that_turns_the_metric_into_another(client: TestClient) -> None:
    """ "what about net?" after a gross revenue answer: the net revenue, same period; an
    outside tryout saw it composed as "... in 2023 net?" and asked back for 'net'."""
    first = client.post("/api/ask", json={"question": SHOW_Q}).json()
    ident = first["verdict"]["id"]
    later = client.post("/api/ask", json={"question": "what about net?", "follow_up_of": ident})
    body = later.json()
    assert body["follow_up"]["question"] == "What was the net revenue in 2023?"
    assert body["follow_up"]["replaced"] == ["metric gross revenue -> net revenue"]
    assert body["follow_up"]["inherited"] == ["period 2023"]  # it was [] (outside tryout 9)
    assert body["badge"] == "show" and "net revenue" in body["reading"]
    # a word that makes no metric of the previous one is appended as before, and asked back
    odd = client.post("/api/ask", json={"question": "and purple?", "follow_up_of": ident}).json()
    assert odd["badge"] == "ask back" and odd["follow_up"]["replaced"] == []


def test_sql_guarded(client: TestClient) -> None:
    ok = client.post("/api/sql", json={"sql": "SELECT count(*) AS n FROM orders"}).json()
    assert ok["verdict"]["result"]["rows"][0][0] > 0
    assert ok["verdict"]["guard"]["ok"] is True
    refused = client.post("/api/sql", json={"sql": "DROP TABLE orders"}).json()
    # A write is refused, as /api/ask refuses a question asking for one (it said "answer").
    assert refused["badge"] == "refuse" and refused["verdict"]["behaviour"] == "refuse"
    assert refused["verdict"]["action"] == "withhold"
    unknown = client.post("/api/sql", json={"sql": "SELECT * FROM nosuch"}).json()
    assert unknown["badge"] == "withhold" and unknown["verdict"]["behaviour"] == "answer"
    assert refused["verdict"]["reasons"] == ["guard.forbidden_statement"]
    assert "result" not in refused["verdict"]


@pytest.mark.parametrize(
    ("statement", "does"),
    [
        ("TRUNCATE orders", "TRUNCATE, which deletes every row of a table"),
        ("COPY orders FROM '{csv}'", "COPY, which reads or writes a file"),
        ("COPY orders TO '{out}'", "COPY, which reads or writes a file"),
        ("ATTACH '{out}' AS other", "ATTACH, which opens another database"),
        ("INSTALL httpfs", "INSTALL, which installs an extension"),
        ("LOAD httpfs", "LOAD, which loads an extension"),
        ("CALL pragma_version()", "CALL, which runs a procedure or table function"),
        ("PRAGMA enable_profiling", "PRAGMA, which changes a setting"),
        ("EXPORT DATABASE '{out}'", "EXPORT, which writes the database to files"),
        ("IMPORT DATABASE '{out}'", "IMPORT, which loads a database from files"),
        ("SET threads = 1", "SET, which changes a setting"),
        ("CHECKPOINT", "CHECKPOINT, which writes the database file"),
    ],
    ids=[
        "truncate",
        "copy-from",
        "copy-to",
        "attach",
        "install",
        "load",
        "call",
        "pragma",
        "export",
        "import",
        "set",
        "checkpoint",
    ],
)
def test_sql_that_would_change_or_touch_files_is_refused(
    client: TestClient, tmp_path: Path, statement: str, does: str
) -> None:
    # Outside tryout 36: TRUNCATE and COPY came back withheld answers ("behaviour": "answer"),
    # where DELETE was refused. Each is refused with what it would do, and nothing runs.
    csv, out = tmp_path / "rows.csv", tmp_path / "out"
    csv.write_text("1,2,3\n", encoding="utf-8")
    count = "SELECT count(*) AS n FROM orders"
    before = client.post("/api/sql", json={"sql": count}).json()["verdict"]["result"]["rows"]
    body = client.post("/api/sql", json={"sql": statement.format(csv=csv, out=out)}).json()
    assert body["badge"] == "refuse" and body["verdict"]["behaviour"] == "refuse", body
    assert body["answer"] is None and "result" not in body["verdict"]
    assert body["verdict"]["reasons"] == ["guard.forbidden_statement"]
    assert f"this statement is {does}, not a query" in body["verdict"]["findings"][0]["message"]
    after = client.post("/api/sql", json={"sql": count}).json()["verdict"]["result"]["rows"]
    assert after == before and not out.exists()


def test_a_query_reading_files_is_refused(client: TestClient, tmp_path: Path) -> None:
    # Left from outside tryout 36: a SELECT over read_csv() came back an answer withheld, where
    # COPY ... FROM the same file was refused. Both touch a file outside the database.
    csv = tmp_path / "rows.csv"
    csv.write_text("a\n1\n", encoding="utf-8")
    for sql, said in [
        (f"SELECT * FROM read_csv('{csv}')", "read_csv() reads files"),
        (f"SELECT * FROM '{csv}'", "names a file or URL"),
    ]:
        body = client.post("/api/sql", json={"sql": sql}).json()
        assert body["badge"] == "refuse" and body["verdict"]["behaviour"] == "refuse", body
        assert "result" not in body["verdict"]
        assert said in body["verdict"]["findings"][0]["message"]


def test_sql_that_only_reads_is_not_a_refusal(client: TestClient) -> None:
    # A read the guard refuses all the same is an answer withheld, never a refusal.
    for statement in ("PRAGMA table_info('orders')", "SELECT * FROM nosuch", "BEGIN"):
        body = client.post("/api/sql", json={"sql": statement}).json()
        assert body["badge"] == "withhold" and body["verdict"]["behaviour"] == "answer", body


def test_sql_as_the_answer_to_a_question_is_one_sample(client: TestClient) -> None:
    # Outside tryout 14: a count of the wrong table for "How many students?" was shown at 1.00.
    # One query is one sample: no agreement to measure, so a warning at most; run as given
    # (no question) it answers nothing and is not capped. The layer's order count leaves the
    # cancelled orders out: a count of them all is another answer (veto.layer_answer_differs).
    sql = "SELECT count(*) AS n FROM orders WHERE status <> 'cancelled'"
    asked = client.post("/api/sql", json={"sql": sql, "question": "How many orders?"}).json()
    assert asked["badge"] == "warn"
    assert "cap.single_sample" in asked["verdict"]["reasons"]
    plain = client.post("/api/sql", json={"sql": sql}).json()
    assert plain["badge"] == "show"
    assert "cap.single_sample" not in [f["code"] for f in plain["verdict"]["findings"]]


def test_sql_answering_another_question_is_withheld(client: TestClient) -> None:
    # Outside tryout 25: 1993's order count for "How many orders were placed in 1992?" came back
    # warned (the paper's 2.1 rule, whose question-SQL signals never lower a score), its number
    # on the page. Scored by assay-1.0, as /api/score is, the signal withholds it.
    sql = "SELECT count(*) AS n FROM orders WHERE year(order_date) = 2023 AND status <> 'cancelled'"
    asked = client.post(
        "/api/sql", json={"sql": sql, "question": "How many orders were placed in 2022?"}
    ).json()
    assert asked["badge"] == "withhold" and asked["answer"] is None
    assert asked["verdict"]["rule"]["name"] == "assay"
    assert "signal.literal_missing" in asked["verdict"]["reasons"]
    right = client.post(
        "/api/sql", json={"sql": sql, "question": "How many orders were placed in 2023?"}
    ).json()
    assert right["badge"] == "warn" and right["answer"]["result"]["rows"][0][0] > 0


def test_score_samples(client: TestClient) -> None:
    records = [
        {
            "id": "s1",
            "question": "How many orders were there?",
            "samples": [{"final_sql": "SELECT count(*) AS n FROM orders"}] * 2,
        }
    ]
    body = client.post("/api/score", json={"records": records}).json()
    (only,) = body["verdicts"]
    assert only["sample_id"] == "s1"
    assert only["verdict"]["provenance"]["db"] == "shop"
    assert only["verdict"]["rule"]["name"] == "assay"  # DEFAULT_RULE, as 'assay score'
    named = client.post("/api/score", json={"records": records, "rule": "agreement_first"})
    assert named.json()["verdicts"][0]["verdict"]["rule"]["name"] == "agreement_first"
    _error(
        client.post("/api/score", json={"records": records, "rule": "nope"}), 422, "request.invalid"
    )


def test_a_path_or_url_opens_nothing(
    client: TestClient, service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    import assay.service._service as module

    opened: list[str] = []
    monkeypatch.setattr(module, "connect", lambda target, *a, **k: opened.append(target))
    monkeypatch.setattr(module, "load_semantic", lambda path: opened.append(str(path)))
    for database in (
        "/etc/passwd",
        "../shop.duckdb",
        "duckdb:///tmp/x.duckdb",
        "postgresql://u:p@10.0.0.1/db",
        "file:///etc/shadow",
    ):
        for path in ("/api/ask", "/api/sql"):
            body = (
                {"question": "x", "database": database}
                if path == "/api/ask"
                else {"sql": "SELECT 1", "database": database}
            )
            _error(client.post(path, json=body), 404, "database.unknown")
        _error(client.get("/api/catalog", params={"database": database}), 404, "database.unknown")
    _error(
        client.post("/api/ask", json={"question": "x", "layer": "/tmp/evil.yaml"}),
        422,
        "request.forbidden_field",
    )
    assert opened == []


def test_score_refuses_a_malformed_record(client: TestClient, service: Service) -> None:
    before = service.ledger.counts()
    records = [{"id": "s1", "question": "q", "samples": []}]
    body = _error(client.post("/api/score", json={"records": records}), 422, "request.invalid")
    assert "records[0]" in body["error"]["message"]
    assert service.ledger.counts() == before


def test_score_refuses_a_db_in_a_record(client: TestClient) -> None:
    records = [{"id": "s1", "db": "/etc/passwd", "question": "q", "samples": [{"text": "x"}]}]
    _error(client.post("/api/score", json={"records": records}), 422, "request.forbidden_field")


def test_verdict_and_feedback(client: TestClient, service: Service) -> None:
    ident = client.post("/api/ask", json={"question": SHOW_Q}).json()["verdict"]["id"]
    sent = client.post("/api/feedback", json={"verdict_id": ident, "label": 0, "comment": "no"})
    assert sent.json()["ok"] is True
    got = client.get(f"/api/verdicts/{ident}").json()
    assert [(f["label"], f["comment"]) for f in got["feedback"]] == [(0, "no")]
    # The answer to show, by the same rule as the ask's (outside tryout 36: no such field, so
    # a client had to apply the withhold rule itself).
    assert got["badge"] == "show" and got["answer"]["text"] == got["verdict"]["text"]
    sql = "SELECT count(*) AS n FROM orders WHERE year(order_date) = 2023 AND status <> 'cancelled'"
    asked = {"sql": sql, "question": "How many orders were placed in 2022?"}
    withheld = client.post("/api/sql", json=asked).json()
    looked_up = client.get(f"/api/verdicts/{withheld['verdict']['id']}").json()
    assert looked_up["badge"] == "withhold" and looked_up["verdict"]["result"]["rows"]
    assert "answer" in looked_up and looked_up["answer"] is None
    assert service.ledger.labels()[ident] == 0
    _error(client.get("/api/verdicts/v-unknown"), 404, "verdict.not_found")


def test_semantic_catalog_health_openapi(client: TestClient) -> None:
    semantic = client.get("/api/semantic").json()["databases"]["shop"]
    assert {"gross_revenue", "net_revenue"} <= {m["name"] for m in semantic["metrics"]}
    tables = client.get("/api/catalog").json()["catalog"]
    assert "orders" in json.dumps(tables)
    assert client.get("/healthz").json() == {"ok": True, "databases": ["shop"], "demo": True}
    document = client.get("/openapi.json").json()
    assert document["openapi"].startswith("3.")
    assert {"/api/ask", "/api/sql", "/api/score", "/api/feedback", "/api/semantic"} <= set(
        document["paths"]
    )
    assert set(
        document["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"][
            "enum"
        ]
    ) == set(ERROR_CODES)


def test_page_is_self_contained(client: TestClient) -> None:
    client = TestClient(client.app)  # its own cookie jar: the page sets the CSRF cookie
    page = client.get("/")
    assert page.status_code == 200 and CSRF_COOKIE in page.cookies
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for asset in ("app.js", "app.css", "favicon.svg"):
        text = client.get(f"/static/{asset}").text
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")
        assert "https://" not in text
    assert "https://" not in page.text and "http://" not in page.text
    _error(client.get("/static/../_app.py"), 404, "request.not_found")


BAD_BODIES = [
    (b"{", "application/json", 400, "request.malformed_json"),
    (b"[1, 2]", "application/json", 422, "request.invalid"),
    (b'{"question": 5}', "application/json", 422, "request.invalid"),
    (b'{"question": ""}', "application/json", 422, "request.invalid"),
    (b'{"question": "   "}', "application/json", 422, "request.invalid"),
    (b'{"question": "x", "verbose": true}', "application/json", 422, "request.unknown_field"),
    (
        b'{"question": "x", "url": "duckdb:///x"}',
        "application/json",
        422,
        "request.forbidden_field",
    ),
    (
        b'{"question": "x", "semantic": "/tmp/x.yaml"}',
        "application/json",
        422,
        "request.forbidden_field",
    ),
    (b"question=x", "application/x-www-form-urlencoded", 415, "request.unsupported_media_type"),
    (
        b'{"question": "x", "database": "../../etc/passwd"}',
        "application/json",
        404,
        "database.unknown",
    ),
    (
        b'{"question": "x", "database": "postgresql://u@h/db"}',
        "application/json",
        404,
        "database.unknown",
    ),
    (b'{"question": "x", "follow_up_of": "v-nope"}', "application/json", 404, "verdict.not_found"),
    # Outside tryout 14: 30,000 nested arrays (60 KB, under the size limit) were a 500.
    (
        b'{"question": ' + b"[" * 30_000 + b"]" * 30_000 + b"}",
        "application/json",
        400,
        "request.malformed_json",
    ),
    (b"null", "application/json", 422, "request.invalid"),
]


def test_a_body_not_an_object_is_named_in_json_words(client: TestClient) -> None:
    for body, kind in (
        (b"null", "JSON null"),
        (b"[1]", "a JSON array"),  # before: "The body is JSON an array"
        (b'"x"', "a JSON string"),
    ):
        got = client.post(
            "/api/ask", content=body, headers={"content-type": "application/json"}
        ).json()
        assert got["error"]["message"] == f"The body is {kind}, not an object."


def test_score_refuses_repeated_ids_before_scoring_any(
    client: TestClient, service: Service
) -> None:
    # Outside tryout 14: two records with one id were both scored ('assay score' refuses it).
    before = service.ledger.counts().verdicts
    record = {"id": "q1", "question": "How many orders?", "samples": [{"final_sql": "SELECT 1"}]}
    got = client.post("/api/score", json={"records": [record, record]})
    assert got.status_code == 422
    assert "repeats the id 'q1' of records[0]" in got.json()["error"]["message"]
    assert service.ledger.counts().verdicts == before


@pytest.mark.parametrize(
    ("body", "kind", "status", "code"),
    BAD_BODIES,
    ids=[b[3] + str(i) for i, b in enumerate(BAD_BODIES)],
)
def test_bad_input_is_refused_and_nothing_written(
    client: TestClient, service: Service, body: bytes, kind: str, status: int, code: str
) -> None:
    before = service.ledger.counts()
    _error(client.post("/api/ask", content=body, headers={"content-type": kind}), status, code)
    assert service.ledger.counts() == before
    assert client.get("/healthz").status_code == 200  # the server keeps serving


def test_question_in_the_url(client: TestClient) -> None:
    _error(
        client.post("/api/ask?question=hello", json={"question": "x"}), 400, "request.query_string"
    )
    _error(client.get("/api/ask?question=hello"), 405, "request.method_not_allowed")
    _error(client.get("/api/nothing"), 404, "request.not_found")
    _error(client.get("/api/semantic?path=/etc"), 422, "request.unknown_field")


def test_unknown_feedback_writes_nothing(client: TestClient, service: Service) -> None:
    before = service.ledger.counts()
    _error(
        client.post("/api/feedback", json={"verdict_id": "v-nope", "label": 1}),
        404,
        "verdict.not_found",
    )
    _error(
        client.post("/api/feedback", json={"verdict_id": "v-x", "label": 2}), 422, "request.invalid"
    )
    _error(
        client.post("/api/feedback", json={"verdict_id": "v-x", "label": True}),
        422,
        "request.invalid",
    )
    assert service.ledger.counts() == before


def test_huge_body(client: TestClient, service: Service) -> None:
    before = service.ledger.counts()
    huge = json.dumps({"question": "x" * 200_000}).encode()
    _error(
        client.post("/api/ask", content=huge, headers={"content-type": "application/json"}),
        413,
        "request.too_large",
    )

    def chunks() -> Any:  # no Content-Length: the limit holds while streaming
        for _ in range(100):
            yield b" " * 1_000

    _error(
        client.post("/api/ask", content=chunks(), headers={"content-type": "application/json"}),
        413,
        "request.too_large",
    )
    assert service.ledger.counts() == before


def test_csrf(client: TestClient) -> None:
    _error(
        client.post(
            "/api/ask", json={"question": SHOW_Q}, headers={"Origin": "http://evil.example"}
        ),
        403,
        "csrf.failed",
    )
    page = TestClient(client.app, base_url="http://testserver")
    page.get("/")  # the page sets its cookie; the page's own calls send the token back
    _error(page.post("/api/ask", json={"question": SHOW_Q}), 403, "csrf.failed")
    token = page.get("/").text.split('name="assay-csrf" content="')[1].split('"')[0]
    ok = page.post("/api/ask", json={"question": SHOW_Q}, headers={CSRF_HEADER: token})
    assert ok.status_code == 200
    same = page.post(
        "/api/ask",
        json={"question": SHOW_Q},
        headers={CSRF_HEADER: token, "Origin": "http://testserver"},
    )
    assert same.status_code == 200


@pytest.fixture(scope="module")
def guarded(demo_paths: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("guarded")
    svc = make_service(
        demo_paths,
        f"sqlite:///{folder / 'ledger.db'}",
        tokens={"ci": "c" * 24},
        limits={"rate_per_minute": 3, "max_body_bytes": 2048, "request_time_limit_s": 30},
        cors_origins=["http://allowed.example"],
    )
    with TestClient(create_app(svc)) as c:
        yield c
    svc.close()


def test_tokens_and_rate(guarded: TestClient) -> None:
    _error(guarded.get("/api/semantic"), 401, "auth.missing_token")
    _error(
        guarded.get("/api/semantic", headers={"Authorization": "Bearer wrong"}),
        401,
        "auth.bad_token",
    )
    auth = {"Authorization": "Bearer " + "c" * 24}
    assert guarded.get("/api/semantic", headers=auth).status_code == 200
    assert guarded.get("/healthz").status_code == 200  # liveness needs no token
    # CORS is on for the configured origin only.
    allowed = guarded.options(
        "/api/ask",
        headers={"Origin": "http://allowed.example", "Access-Control-Request-Method": "POST"},
    )
    assert allowed.headers.get("access-control-allow-origin") == "http://allowed.example"
    assert guarded.get("/api/semantic", headers=auth).status_code == 200
    assert guarded.get("/api/semantic", headers=auth).status_code == 200
    limited = guarded.get("/api/semantic", headers=auth)
    body = _error(limited, 429, "rate.limited")
    assert limited.headers["retry-after"] == "60" and body["error"]["hint"]


def test_no_cors_by_default(client: TestClient) -> None:
    response = client.options(
        "/api/ask", headers={"Origin": "http://x.example", "Access-Control-Request-Method": "POST"}
    )
    assert "access-control-allow-origin" not in response.headers


def test_timeout_and_internal_errors_hide_the_exception(
    demo_paths: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = make_service(
        demo_paths,
        f"sqlite:///{tmp_path / 'l.db'}",
        limits={"request_time_limit_s": 0.2},
    )
    try:
        import time

        with TestClient(create_app(svc), raise_server_exceptions=False) as c:
            monkeypatch.setattr(svc, "ask", lambda *a, **k: time.sleep(1.0) or {})
            _error(c.post("/api/ask", json={"question": SHOW_Q}), 504, "request.timeout")

            def boom(*args: object, **kwargs: object) -> dict[str, Any]:
                raise RuntimeError("secret path /srv/warehouse.duckdb")

            monkeypatch.setattr(svc, "ask", boom)
            body = _error(c.post("/api/ask", json={"question": SHOW_Q}), 500, "server.internal")
            assert "secret" not in json.dumps(body)

            from assay.errors import LedgerError

            def ledger_down(*args: object, **kwargs: object) -> dict[str, Any]:
                raise LedgerError("disk /srv/ledger.db is full", hint="")

            monkeypatch.setattr(svc, "ask", ledger_down)
            body = _error(c.post("/api/ask", json={"question": SHOW_Q}), 503, "ledger.unavailable")
            assert "/srv" not in json.dumps(body)

            from assay.errors import ConnectionFailed, InputError

            def bad_input(*args: object, **kwargs: object) -> dict[str, Any]:
                raise InputError("The question is 3,000 characters long.", hint="Ask less.")

            monkeypatch.setattr(svc, "ask", bad_input)
            body = _error(c.post("/api/ask", json={"question": SHOW_Q}), 422, "input.invalid")
            assert body["error"]["hint"] == "Ask less."

            def db_down(*args: object, **kwargs: object) -> dict[str, Any]:
                raise ConnectionFailed("cannot open /srv/x.duckdb", hint="")

            monkeypatch.setattr(svc, "ask", db_down)
            body = _error(c.post("/api/ask", json={"question": SHOW_Q}), 503, "server.unavailable")
            assert "/srv" not in json.dumps(body)

            from assay.errors import ExecutionTimeout

            def too_slow(*args: object, **kwargs: object) -> dict[str, Any]:
                raise ExecutionTimeout("query ran past 10000 ms on /srv/x.duckdb", hint="")

            monkeypatch.setattr(svc, "sql", too_slow)
            body = _error(c.post("/api/sql", json={"sql": "SELECT 1"}), 504, "request.timeout")
            assert "time limit" in body["error"]["message"] and "/srv" not in json.dumps(body)
            assert "retrying runs the same query" in body["error"]["hint"]
    finally:
        svc.close()


def test_several_databases_need_a_key(demo_paths: tuple[Path, Path], tmp_path: Path) -> None:
    db, layer = demo_paths
    svc = make_service(
        demo_paths,
        f"sqlite:///{tmp_path / 'l.db'}",
        databases={
            "a": {"url": str(db), "semantic": str(layer)},
            "b": {"url": str(db), "semantic": str(layer)},
        },
    )
    try:
        with TestClient(create_app(svc)) as c:
            _error(c.post("/api/ask", json={"question": SHOW_Q}), 422, "database.required")
            ok = c.post("/api/ask", json={"question": SHOW_Q, "database": "b"}).json()
            assert ok["database"] == "b"
            other = c.post(
                "/api/ask",
                json={
                    "question": "and in 2024?",
                    "database": "a",
                    "follow_up_of": ok["verdict"]["id"],
                },
            )
            _error(other, 422, "request.invalid")
            # A follow-up that names no database is asked of its answer's (before:
            # database.required, though the verdict knows its database).
            inherited = c.post(
                "/api/ask",
                json={"question": "and in 2024?", "follow_up_of": ok["verdict"]["id"]},
            )
            assert inherited.status_code == 200, inherited.text
            assert inherited.json()["database"] == "b"
            assert "2024" in inherited.json()["follow_up"]["question"]
    finally:
        svc.close()


def test_every_error_code_is_tested() -> None:
    here = Path(__file__).parent
    source = "".join(p.read_text(encoding="utf-8") for p in sorted(here.glob("test_*.py")))
    untested = [code for code in ERROR_CODES if f'"{code}"' not in source]
    assert untested == []


def test_messages_say_what_to_do(
    client: TestClient, demo_paths: tuple[Path, Path], tmp_path: Path
) -> None:
    """Each refusal says what went wrong and what to do instead (outside tryout 25: empty hints,
    a DELETE on a verdict and a preflight told to "POST the question in a JSON body", a chunked
    body's size misreported, a missing scheme called an unknown token, a forbidden field named
    as a Python list)."""
    cross = _error(
        client.post(
            "/api/ask", json={"question": SHOW_Q}, headers={"Sec-Fetch-Site": "cross-site"}
        ),
        403,
        "csrf.failed",
    )
    assert "cors_origins" in cross["error"]["hint"]
    deleted = _error(client.delete("/api/verdicts/v-x"), 405, "request.method_not_allowed")
    assert "POST" not in deleted["error"]["hint"] and "GET" in deleted["error"]["hint"]
    preflight = _error(
        client.options(
            "/api/ask",
            headers={"Origin": "http://x.example", "Access-Control-Request-Method": "POST"},
        ),
        405,
        "request.method_not_allowed",
    )
    assert "CORS is off" in preflight["error"]["hint"]
    asked = _error(client.get("/api/ask"), 405, "request.method_not_allowed")
    assert asked["error"]["hint"].startswith("POST the question")

    def chunks() -> Any:  # 200,000 bytes without a Content-Length
        for _ in range(200):
            yield b" " * 1_000

    chunked = _error(
        client.post("/api/ask", content=chunks(), headers={"content-type": "application/json"}),
        413,
        "request.too_large",
    )
    assert chunked["error"]["message"].startswith("The body is larger than the limit of 65,536")
    named = _error(
        client.post(
            "/api/score",
            json={"records": [{"id": "a", "question": "q", "samples": [], "db": "x"}]},
        ),
        422,
        "request.forbidden_field",
    )
    assert named["error"]["message"].startswith("records[0] names the field 'db':")
    svc = make_service(demo_paths, f"sqlite:///{tmp_path / 'l.db'}", tokens={"ci": "c" * 24})
    try:
        with TestClient(create_app(svc)) as c:
            bare = _error(
                c.get("/api/semantic", headers={"Authorization": "c" * 24}), 401, "auth.bad_token"
            )
            assert "no scheme" in bare["error"]["message"]
            basic = _error(
                c.get("/api/semantic", headers={"Authorization": "Basic abc"}),
                401,
                "auth.bad_token",
            )
            assert "'Basic'" in basic["error"]["message"]
    finally:
        svc.close()
